import { z } from "zod";
import { messageSchema, outcomeSchema } from "../agent/transcript-schema.ts";
import { AGENT_NAME_PATTERN } from "../agents/definition.ts";
import type { Message, UserMessage } from "../model/messages.ts";
import { PERMISSION_MODES } from "../permissions/modes.ts";

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

const workspaceSchema = z.discriminatedUnion("mode", [
  z.object({
    /** `shared` or `isolated`: a folder of the parent's machine, which the worker must see at the same path. */
    mode: z.enum(["shared", "isolated"]),
    path: z.string().startsWith("/"),
    /** The token in `<path>/.agentry/workspace-id`: proves the worker sees the same folder, not a namesake. */
    workspaceId: z.string().min(8),
  }),
  z.object({
    /** A snapshot of the parent's workspace, pushed to a git remote both machines reach. */
    mode: z.literal("worktree"),
    /** The remote's URL, as the parent reaches it (a path, ssh or https). */
    remote: z.string().min(1),
    /** The commit the parent made of its workspace (uncommitted changes included). */
    snapshot: z.string().regex(/^[0-9a-f]{40,64}$/),
    /** The hidden ref it was pushed to. */
    snapshotRef: z.string().startsWith("refs/agentry/"),
    /** Where the child's work goes; a continuation starts from it when it exists on the remote. */
    branch: z.string().startsWith("agentry/"),
    /** The parent's workspace relative to its repository's top (the child works in the same sub-folder). */
    inner: z.string(),
  }),
]);
export type JobWorkspace = z.infer<typeof workspaceSchema>;

export const jobDataSchema = z.object({
  v: z.literal(JOB_VERSION),
  taskId: z.string().min(1),
  /** The child's session id: its events name it. */
  sessionId: z.string().min(1),
  parentSessionId: z.string(),
  agentPath: z.array(z.string()).min(1),
  depth: z.number().int().min(1),
  agent: z.object({
    name: z.string().regex(AGENT_NAME_PATTERN),
    description: z.string(),
    prompt: z.string(),
    temperature: z.number().min(0).max(2).optional(),
    allowedHosts: z.array(z.string()).optional(),
  }),
  /** `provider:model`, resolved by the parent (aliases included); the worker builds it with its own keys. */
  model: z.string().min(1),
  /** The names of the child's tools; a worker gives it those of its own tools, never more. */
  tools: z.array(z.string()),
  rules: z.array(
    z.object({
      permission: z.string().min(1),
      pattern: z.string().min(1),
      action: z.enum(["allow", "ask", "deny"]),
      /** A rule of an untrusted project: dropping the mark would turn its allows into real ones. */
      narrowOnly: z.literal(true).exactOptional(),
    }),
  ),
  mode: z.enum(PERMISSION_MODES),
  /** The parent's commands were confined read-only: the child's are too, on any machine. */
  readOnly: z.boolean(),
  limits: z.object({
    maxTurns: z.number().int().positive(),
    stallTimeoutMs: z.number().int().positive().optional(),
    maxTokens: z.number().int().positive().optional(),
    maxDurationMs: z.number().int().positive().optional(),
  }),
  toolOutputLimit: z.number().int().positive().optional(),
  /** The conversation so far, ending with what the child is to answer (its prompt, usually). */
  history: z.array(messageSchema),
  /** Messages sent to it before it started: it reads them at its first turn. */
  messages: z.array(userMessage),
  workspace: workspaceSchema,
});
export type JobData = Omit<z.infer<typeof jobDataSchema>, "history" | "messages"> & {
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
});
export type JobResult = Omit<z.infer<typeof jobResultSchema>, "messages" | "unread"> & {
  messages: Message[];
  unread: UserMessage[];
};

/** A job's data or result that is not what this version reads, worded for the person reading logs. */
export function problemOf(error: z.ZodError): string {
  const issue = error.issues[0];
  return `${issue?.path.join(".") || "value"}: ${issue?.message ?? "invalid"}`;
}
