import { z } from "zod";
import { usageSchema } from "../model/usage-schema.ts";
import { SAFE_ID } from "./safe-id.ts";
import { ACTIVITY_MAX_TOOLS, INBOX_MAX_MESSAGES, MESSAGE_MAX_CHARS } from "./task-limits.ts";
import { TASK_REASONS, TASK_STATUSES } from "./task-status.ts";

export { SAFE_ID } from "./safe-id.ts";
export { ACTIVITY_MAX_TOOLS, INBOX_MAX_MESSAGES, MESSAGE_MAX_CHARS } from "./task-limits.ts";
// The status constants live apart, so code that needs only them does not load zod.
export {
  FINISHED_STATUSES,
  type FinishedStatus,
  isFinished,
  TASK_REASONS,
  TASK_STATUSES,
  type TaskReason,
  type TaskStatus,
} from "./task-status.ts";

const id = (what: string) =>
  z.string().regex(SAFE_ID, {
    error: `${what} must use letters, digits, ".", "_" and "-" only (at most 128, not starting with "." or "-")`,
  });
const timestamp = z.iso.datetime({ error: "must be an ISO 8601 UTC timestamp" });

/**
 * Where a child that does not run in its owner's process runs, so that any process can find it
 * again (`ChildExecutor.follow`) and people can see it (`agentry tasks show`): a task of a remote A2A
 * agent (`taskId` once the agent has answered; `contextId` is the child's conversation there), or a
 * job on a queue. Since task file v2.
 */
export const executorRefSchema = z.discriminatedUnion("kind", [
  z.strictObject({
    kind: z.literal("a2a"),
    url: z.string().min(1),
    contextId: z.string().min(1),
    taskId: z.string().min(1).exactOptional(),
  }),
  z.strictObject({ kind: z.literal("queue"), queue: z.string().min(1), jobId: z.string().min(1) }),
]);

export type ExecutorRef = z.infer<typeof executorRefSchema>;

const toolSchema = z.strictObject({ name: z.string(), arg: z.string() });

/**
 * What a running child does now, as its owner saw it in the child's events (the tree's node, see
 * `src/tree/node-activity.ts`), so another process (the web view) shows what the owner's terminal
 * shows. Written by the owner, throttled; since task file v3.
 */
export const taskActivitySchema = z.strictObject({
  turns: z.number().int().nonnegative(),
  /** Input tokens (cache reads and writes included) and output tokens so far. */
  tokensIn: z.number().nonnegative(),
  tokensOut: z.number().nonnegative(),
  /** US dollars so far, when the model's price is known. */
  cost: z.number().nonnegative().exactOptional(),
  /** Tools running now, oldest first. */
  tools: z.array(toolSchema).max(ACTIVITY_MAX_TOOLS),
  lastTool: toolSchema.exactOptional(),
  /** Its model call waits for its endpoint's capacity: why, and the limit of calls in flight. */
  waiting: z
    .strictObject({ reason: z.enum(["limit", "retry_after", "rate_limit"]), limit: z.number() })
    .exactOptional(),
  /** Its conversation is being compacted; how many tokens it had. */
  compacting: z.number().nonnegative().exactOptional(),
});

export type TaskActivity = z.infer<typeof taskActivitySchema>;

/**
 * A message sent to a working task from another process (`agentry ui`): the owner delivers it into
 * the child's next turn, as `task_send` does, and takes it out of the inbox. Since task file v3.
 */
export const taskMessageSchema = z.strictObject({
  id: id("message id"),
  text: z.string().min(1).max(MESSAGE_MAX_CHARS),
  at: timestamp,
});

export type TaskMessage = z.infer<typeof taskMessageSchema>;

/**
 * One background or sync child as the control plane sees it (DESIGN §4). The record is read back
 * from disk and by other processes, so it is defined by a zod schema (a trust boundary); the type is
 * inferred from it. The store's read path checks records with `checkTaskRecord` and loads this schema
 * only to word the error for a record that check refuses (see `parseTaskFile`).
 */
export const taskRecordSchema = z.object({
  taskId: id("taskId"),
  agentType: z.string(),
  parentAgentId: id("parentAgentId"),
  parentSessionId: id("parentSessionId"),
  childSessionId: z.string(),
  description: z.string(),
  status: z.enum(TASK_STATUSES),
  result: z.string().exactOptional(),
  error: z.string().exactOptional(),
  reason: z.enum(TASK_REASONS).exactOptional(),
  cancelRequested: z.boolean(),
  createdAt: timestamp,
  /** The owner's heartbeat: bumped by every owner update, so silence means the owner is gone. */
  updatedAt: timestamp,
  /** Set once, when the parent was told the task finished; makes delivery exactly-once. */
  deliveredAt: timestamp.exactOptional(),
  /** `<hostname>:<pid>` of the process running the task. */
  owner: z.string(),
  usage: usageSchema.exactOptional(),
  model: z.string().exactOptional(),
  agentPath: z.array(z.string()).exactOptional(),
  background: z.boolean(),
  /** Where it runs when that is not its owner's process (a remote agent, a queue). */
  ref: executorRefSchema.exactOptional(),
  /** What it does now, while it runs (its owner writes it). */
  activity: taskActivitySchema.exactOptional(),
  /** Messages from other processes its owner has not delivered yet. */
  inbox: z.array(taskMessageSchema).max(INBOX_MAX_MESSAGES).exactOptional(),
});

export type TaskRecord = z.infer<typeof taskRecordSchema>;

/** What `create` takes: the record, with the bookkeeping fields defaulted. */
export type NewTaskRecord = Omit<TaskRecord, "status" | "cancelRequested" | "createdAt" | "updatedAt"> &
  Partial<Pick<TaskRecord, "status" | "cancelRequested" | "createdAt" | "updatedAt">>;

/** The fields that identify a record and where it is stored; an update may not change them. */
export const IMMUTABLE_FIELDS = ["taskId", "parentAgentId", "parentSessionId", "createdAt"] as const;

export type TaskPatch = Partial<Omit<TaskRecord, (typeof IMMUTABLE_FIELDS)[number]>>;
