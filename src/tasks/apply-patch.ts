import { IllegalTransitionError, TaskStoreError } from "./task-errors.ts";
import {
  IMMUTABLE_FIELDS,
  isFinished,
  type NewTaskRecord,
  TASK_STATUSES,
  type TaskMessage,
  type TaskPatch,
  type TaskRecord,
  type TaskStatus,
  taskMessageSchema,
  taskRecordSchema,
} from "./task-record.ts";

/**
 * The record rules every backend shares, as pure functions: what a new record defaults to, which
 * status changes are legal, and what an update produces. Backends only add storage and locking.
 */

/** Forward moves only; a finished task is reopened only by a resume (see `applyPatch`). */
const NEXT: Readonly<Record<TaskStatus, readonly TaskStatus[]>> = {
  PENDING: ["RUNNING", "COMPLETED", "FAILED", "CANCELLED"],
  RUNNING: ["COMPLETED", "FAILED", "CANCELLED"],
  COMPLETED: [],
  FAILED: [],
  CANCELLED: [],
};
const REOPEN: readonly TaskStatus[] = ["PENDING", "RUNNING"];
/** Built once: zod compiles a parser per schema instance, and `.strict()` makes a new instance. */
const strictRecordSchema = taskRecordSchema.strict();

export interface ApplyOptions {
  /** Allow a finished task to go back to PENDING or RUNNING (a continued child). */
  resume?: boolean;
  /**
   * Allow a task FAILED `orphaned` to take any status: its owner was silent, not gone (paused, or out
   * of sight in another pid namespace) and now reports how it really ended, or that it runs again.
   */
  reclaim?: boolean;
  now: Date;
}

/** Fills `create`'s defaults and validates the result; throws `TaskStoreError` on bad input. */
export function newRecord(input: NewTaskRecord, now: Date): TaskRecord {
  const at = now.toISOString();
  return validated({
    status: "PENDING",
    cancelRequested: false,
    createdAt: at,
    updatedAt: input.createdAt ?? at,
    ...input,
  });
}

/**
 * Applies `patch` to `record`. Returns `record` itself when nothing would change (so callers can skip
 * the write); otherwise a new, validated record with `updatedAt` bumped unless the patch sets it.
 * Reopening a finished task (or reclaiming an orphaned one) clears what belonged to its previous
 * run or verdict (result, error, reason, deliveredAt, cancelRequested), except what the patch sets.
 */
export function applyPatch(record: TaskRecord, patch: TaskPatch, options: ApplyOptions): TaskRecord {
  for (const field of IMMUTABLE_FIELDS) {
    const value = (patch as Record<string, unknown>)[field];
    if (value !== undefined && value !== record[field]) {
      throw new TaskStoreError(`Task ${record.taskId}: "${field}" cannot be changed by an update.`);
    }
  }
  if (!changes(record, patch)) return record;

  let base: TaskRecord = record;
  const to = patch.status;
  // An unknown status is left to the schema check below, which names the field.
  if (to !== undefined && to !== record.status && TASK_STATUSES.includes(to)) {
    const reopening = isFinished(record.status) && REOPEN.includes(to);
    const reclaiming = options.reclaim === true && record.status === "FAILED" && record.reason === "orphaned";
    if (!(NEXT[record.status].includes(to) || (reopening && options.resume) || reclaiming)) {
      throw new IllegalTransitionError(record.taskId, record.status, to, isFinished(record.status));
    }
    if (reopening || reclaiming) {
      const { result: _r, error: _e, reason: _why, deliveredAt: _d, ...rest } = record;
      base = { ...rest, cancelRequested: false };
    }
  }
  return validated({ ...base, updatedAt: options.now.toISOString(), ...patch });
}

function changes(record: TaskRecord, patch: TaskPatch): boolean {
  return Object.entries(patch).some(
    ([key, value]) =>
      value !== undefined &&
      JSON.stringify(value) !== JSON.stringify((record as Record<string, unknown>)[key]),
  );
}

function validated(candidate: Record<string, unknown>): TaskRecord {
  // `undefined` in a patch means "not given", never "delete": strip it before validating.
  const clean = Object.fromEntries(Object.entries(candidate).filter(([, value]) => value !== undefined));
  const parsed = strictRecordSchema.safeParse(clean);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const field = issue?.path.join(".") || "record";
  const id = typeof clean.taskId === "string" ? `Task ${clean.taskId}` : "Task record";
  throw new TaskStoreError(`${id}: invalid "${field}": ${issue?.message ?? "invalid value"}.`);
}

/** A message for a task's inbox, checked before it is written (a bad one would make the file unreadable). */
export function checkMessage(taskId: string, message: TaskMessage): TaskMessage {
  const parsed = taskMessageSchema.safeParse(message);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const field = issue?.path.join(".") || "message";
  throw new TaskStoreError(
    `Task ${taskId}: invalid message "${field}": ${issue?.message ?? "invalid value"}.`,
  );
}
