import { posix } from "node:path";
import type { Redis } from "ioredis";
import { z } from "zod";
import { messageSchema } from "../agent/session/transcript-schema.ts";
import { outcomeSchema } from "../contracts/outcome.ts";
import type { Message, UserMessage } from "../model/messages.ts";
import { type LoopChildSpec, loopChildSpecSchema } from "../subagents/placement.ts";
import { hasControlCharacter } from "../text/control-characters.ts";
import { JOB_KEYS_TTL_S, jobKeys } from "./fleet-keys.ts";
import { remoteProblem } from "./fleet-remote.ts";
import type { FleetClient } from "./parent/fleet-client.ts";

/**
 * What a queued child's job carries, and what its worker returns (a result read as the parent reads
 * it, kept beside its job while its worker holds the lock). Both cross Redis between machines that may
 * run different agentry versions, so both are versioned and parsed with zod on arrival.
 *
 * A job carries everything a worker needs to run one activation and nothing it must not have: the
 * child's spec (`ChildSpec`: its resolved definition, rules, tool names, model id, limits), the
 * conversation so far and the messages sent before it started, and where to work. Never a key or a
 * header: a worker calls its models with its own environment and config, and a definition's MCP
 * servers do not travel (their configs may hold secrets). Version 2: the spec replaced v1's own fields.
 */
export const JOB_VERSION = 2;

const userMessage = messageSchema.refine((message) => message.role === "user", "must be a user message");

/**
 * Everything below is read as if it came from the internet: whoever can write to the fleet's Redis
 * writes jobs. Objects are strict (an unknown key refuses the job), strings have a form and a length,
 * numbers a range, and nothing names a place on the worker's disk but through these checks.
 */
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

export const jobDataSchema = z
  .strictObject({
    v: z.literal(JOB_VERSION),
    /** The child, as its parent described it (`describeChild`): the worker runs it, never rebuilds it. */
    spec: loopChildSpecSchema,
    /** The conversation so far, ending with what the child is to answer (its prompt, usually). */
    history: z.array(messageSchema),
    /** Messages sent to it before it started: it reads them at its first turn. */
    messages: z.array(userMessage),
    /** Where it works on the worker: the place its spec's workspace is, made to travel. */
    workspace: workspaceSchema,
    /** HMAC of the rest with the fleet's key (`FleetKey`), when the parent has one. */
    sig: z
      .string()
      .regex(/^[0-9a-f]{64}$/)
      .optional(),
  })
  .refine(
    (job) => job.spec.workspace.mode === job.workspace.mode,
    "workspace: its mode must be its spec's workspace mode",
  );
export type JobData = {
  v: typeof JOB_VERSION;
  spec: LoopChildSpec;
  history: Message[];
  messages: UserMessage[];
  workspace: JobWorkspace;
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

/**
 * A job's result as it came back (BullMQ's return value, or the copy its worker kept), read as
 * untrusted input: signed with the fleet's key when this parent has one, in the shape this version
 * reads. Throws what to tell the user otherwise.
 */
export function readResult(client: FleetClient, jobId: string, value: unknown): JobResult {
  if (client.key !== undefined && !client.key.verify("result", { queue: client.queueName, jobId }, value))
    throw new Error(
      `its job ${jobId} came back with a result not signed with the fleet's key (AGENTRY_FLEET_KEY): a worker without the key, or a result someone else wrote to Redis; it was not read`,
    );
  const parsed = jobResultSchema.safeParse(value);
  if (!parsed.success)
    throw new Error(`its worker returned a result this agentry cannot read (${problemOf(parsed.error)})`);
  return parsed.data as JobResult;
}

/**
 * The result a worker kept for the job while it held the job's lock (`keepResult`), or undefined:
 * none, Redis does not answer, or one that does not read (it is not taken).
 */
export async function keptResultOf(client: FleetClient, jobId: string): Promise<JobResult | undefined> {
  try {
    const value = await keptResult(client.commands, jobKeys(client.queueName, jobId, client.prefix).result);
    return value === undefined ? undefined : readResult(client, jobId, value);
  } catch {
    return undefined;
  }
}

/** KEYS: the job's BullMQ lock, its result. ARGV: the lock's token, the result, ttl (s). 1 when kept. */
const KEEP = `
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[2], ARGV[2], 'EX', ARGV[3])
return 1
`;

/**
 * Keeps a job's result (as it will be returned: signed when the worker has the fleet's key) beside
 * the job, only while `token` still holds the job's lock: a worker that lost the job keeps nothing, so
 * of two workers that ran one job only the lock's holder's result is kept. False when the lock was
 * not held (the caller gives the job back).
 */
export async function keepResult(
  client: Redis,
  keys: { lock: string; result: string },
  token: string,
  result: unknown,
): Promise<boolean> {
  const kept = await client.eval(
    KEEP,
    2,
    keys.lock,
    keys.result,
    token,
    JSON.stringify(result),
    JOB_KEYS_TTL_S,
  );
  return kept === 1;
}

/** The result kept for a job (as it was kept: still to be checked by whoever reads it), or undefined. */
export async function keptResult(client: Redis, resultKey: string): Promise<unknown> {
  const text = await client.get(resultKey);
  if (text === null) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
