/**
 * A task's status and why it ended, as plain constants: the CLI and the store's read path use them
 * without loading zod (`task-record.ts` builds the schema from them).
 */
export const TASK_STATUSES = ["PENDING", "RUNNING", "COMPLETED", "FAILED", "CANCELLED"] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];

export const FINISHED_STATUSES = ["COMPLETED", "FAILED", "CANCELLED"] as const;
export type FinishedStatus = (typeof FINISHED_STATUSES)[number];

/** Why a task ended the way it did, when the status alone does not say. */
export const TASK_REASONS = ["orphaned", "stalled", "budget", "timeout", "cancelled", "max_turns"] as const;
export type TaskReason = (typeof TASK_REASONS)[number];

export function isFinished(status: TaskStatus): status is FinishedStatus {
  return (FINISHED_STATUSES as readonly TaskStatus[]).includes(status);
}
