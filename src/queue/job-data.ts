import { posix } from "node:path";
import { z } from "zod";
import { isValidSessionId } from "../agent/session/session-id.ts";
import { messageSchema, outcomeSchema } from "../agent/session/transcript-schema.ts";
import { AGENT_NAME_PATTERN } from "../agents/definition.ts";
import type { Message, UserMessage } from "../model/messages.ts";
import { PERMISSION_MODES } from "../permissions/modes.ts";
import { parseAllowedHosts } from "../sandbox/network-hosts.ts";
import { hasControlCharacter, remoteProblem } from "./fleet-remote.ts";

/**
 * What a queued child's job carries, and what its worker returns. Both cross Redis between machines
 * that may run different agentry versions, so both are versioned and parsed with zod on arrival.
 *
 * A job carries everything a worker needs to run one activation and nothing it must not have: the
 * resolved definition (prompt, tool names, rules, model id, limits), the conversation so far and the
 * messages sent before it started, and where to work. Never a key or a header: a worker calls its
 * models with its own environment and config, and a definition's MCP servers do not travel (their
 * configs may hold secrets).
 */
export const JOB_VERSION = 1;

const userMessage = messageSchema.refine((message) => message.role === "user", "must be a user message");

/**
 * Everything below is read as if it came from the internet: whoever can write to the fleet's Redis
 * writes jobs. Objects are strict (an unknown key refuses the job), strings have a form and a length,
 * numbers a range, and nothing names a place on the worker's disk but through these checks.
 */
const sessionId = z
  .string()
  .refine(isValidSessionId, "must be a session id (letters, digits, '.', '_', '-')");
const text = (max: number) => z.string().max(max);
const noControl = (value: string) => !hasControlCharacter(value);
/** A relative path inside a checkout: no `..`, no leading `/`, no `.` or empty segment but the whole. */
const insidePath = z
  .string()
  .max(4096)
  .refine(noControl, "must hold no control character")
  .refine(
    (path) =>
      path === "" ||
      (!path.startsWith("/") &&
        path.split("/").every((part) => part !== "" && part !== "." && part !== "..")),
    "must be a relative path that stays inside the worktree (no '..', not absolute)",
  );
/** A ref name agentry makes: `<prefix><id>`, which git accepts and no option can hide in. */
const refUnder = (prefix: string) =>
  z
    .string()
    .max(256)
    .refine(
      (ref) =>
        ref.startsWith(prefix) &&
        /^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(ref.slice(prefix.length)) &&
        !ref.includes("..") &&
        !ref.endsWith(".lock"),
      `must be ${prefix}<id> (letters, digits, '.', '_', '-')`,
    );

const workspaceSchema = z.discriminatedUnion("mode", [
  z.strictObject({
    /** `shared` or `isolated`: a folder of the parent's machine, which the worker must see at the same path. */
    mode: z.enum(["shared", "isolated"]),
    path: z
      .string()
      .max(4096)
      .refine(noControl, "must hold no control character")
      .refine(
        (path) => path.startsWith("/") && posix.normalize(path) === path,
        "must be an absolute, normal path",
      ),
    /** The token in `<path>/.agentry/workspace-id`: proves the worker sees the same folder, not a namesake. */
    workspaceId: z.string().regex(/^[A-Za-z0-9]{8,128}$/),
  }),
  z.strictObject({
    /** A snapshot of the parent's workspace, pushed to a git remote both machines reach. */
    mode: z.literal("worktree"),
    /** The remote's URL, as the parent reaches it (https, ssh, file or an absolute path: `remoteProblem`). */
    remote: z.string().superRefine((remote, context) => {
      const problem = remoteProblem(remote);
      if (problem !== undefined) context.addIssue({ code: "custom", message: problem });
    }),
    /** The commit the parent made of its workspace (uncommitted changes included). */
    snapshot: z.string().regex(/^[0-9a-f]{40}$|^[0-9a-f]{64}$/),
    /** The hidden ref it was pushed to. */
    snapshotRef: refUnder("refs/agentry/snapshots/"),
    /** Where the child's work goes; a continuation starts from it when it exists on the remote. */
    branch: refUnder("agentry/"),
    /** The parent's workspace relative to its repository's top (the child works in the same sub-folder). */
    inner: insidePath,
  }),
]);
export type JobWorkspace = z.infer<typeof workspaceSchema>;

const positive = (max: number) => z.number().int().positive().max(max);

export const jobDataSchema = z.strictObject({
  v: z.literal(JOB_VERSION),
  taskId: sessionId,
  /** The child's session id: its events name it. */
  sessionId,
  parentSessionId: z.union([z.literal(""), sessionId]),
  agentPath: z.array(text(128).min(1).refine(noControl, "must hold no control character")).min(1).max(32),
  depth: positive(32),
  agent: z.strictObject({
    name: z.string().regex(AGENT_NAME_PATTERN),
    description: text(16_384),
    prompt: text(1_000_000),
    temperature: z.number().min(0).max(2).optional(),
    allowedHosts: z
      .array(text(256))
      .max(256)
      .superRefine((hosts, context) => {
        try {
          parseAllowedHosts(hosts);
        } catch (error) {
          context.addIssue({ code: "custom", message: (error as Error).message });
        }
      })
      .optional(),
  }),
  /** `provider:model`, resolved by the parent (aliases included); the worker builds it with its own keys. */
  model: z.string().regex(/^[a-z][a-z0-9-]*:[^\s]{1,256}$/, "must be provider:model"),
  /** The names of the child's tools; a worker gives it those of its own tools, never more. */
  tools: z.array(z.string().regex(/^[A-Za-z0-9_.:-]{1,128}$/)).max(512),
  rules: z
    .array(
      z.strictObject({
        permission: text(256).min(1),
        pattern: text(4096).min(1),
        action: z.enum(["allow", "ask", "deny"]),
        /** A rule of an untrusted project: dropping the mark would turn its allows into real ones. */
        narrowOnly: z.literal(true).exactOptional(),
      }),
    )
    .max(10_000),
  mode: z.enum(PERMISSION_MODES),
  /** The parent's commands were confined read-only: the child's are too, on any machine. */
  readOnly: z.boolean(),
  limits: z.strictObject({
    maxTurns: positive(100_000),
    stallTimeoutMs: positive(7 * 24 * 3600_000).optional(),
    maxTokens: positive(1e12).optional(),
    maxDurationMs: positive(30 * 24 * 3600_000).optional(),
  }),
  toolOutputLimit: positive(100_000_000).optional(),
  /** The conversation so far, ending with what the child is to answer (its prompt, usually). */
  history: z.array(messageSchema),
  /** Messages sent to it before it started: it reads them at its first turn. */
  messages: z.array(userMessage),
  workspace: workspaceSchema,
  /** HMAC of the rest with the fleet's key (`FleetKey`), when the parent has one. */
  sig: z
    .string()
    .regex(/^[0-9a-f]{64}$/)
    .optional(),
});
export type JobData = Omit<z.infer<typeof jobDataSchema>, "history" | "messages" | "sig"> & {
  history: Message[];
  messages: UserMessage[];
};

export const jobResultSchema = z.object({
  v: z.literal(JOB_VERSION),
  outcome: outcomeSchema,
  /** What this activation added to the conversation, in order (the parent appends it to its transcript). */
  messages: z.array(messageSchema),
  /** Messages that arrived as it ended, unread: the parent continues the child with them. */
  unread: z.array(userMessage),
  branch: z.string().optional(),
  workspaceNote: z.string().optional(),
  /** The worker that ran it (`host:pid`), for the parent's messages. */
  worker: z.string(),
  /** HMAC with the fleet's key (`FleetKey`), when the worker has one. */
  sig: z.string().optional(),
});
export type JobResult = Omit<z.infer<typeof jobResultSchema>, "messages" | "unread" | "sig"> & {
  messages: Message[];
  unread: UserMessage[];
};

/** A job's data or result that is not what this version reads, worded for the person reading logs. */
export function problemOf(error: z.ZodError): string {
  const issue = error.issues[0];
  return `${issue?.path.join(".") || "value"}: ${issue?.message ?? "invalid"}`;
}
