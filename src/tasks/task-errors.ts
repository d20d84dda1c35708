import { AgentryError, type ErrorKind } from "../errors/agentry-error.ts";
import type { TaskStatus } from "./task-record.ts";

/**
 * Base class: every error the task stores throw on purpose. Used as is for a request the store cannot
 * take (a bad field, a bad query): the caller's fault.
 */
export class TaskStoreError extends AgentryError {
  override readonly name: string = "TaskStoreError";
  readonly kind: ErrorKind = "user";
}

export class TaskNotFoundError extends TaskStoreError {
  override readonly name = "TaskNotFoundError";
  readonly taskId: string;
  constructor(taskId: string) {
    super(`No task with id ${JSON.stringify(taskId)}.`);
    this.taskId = taskId;
  }
}

export class TaskExistsError extends TaskStoreError {
  override readonly name = "TaskExistsError";
  readonly taskId: string;
  constructor(taskId: string) {
    super(`A task with id ${JSON.stringify(taskId)} already exists.`);
    this.taskId = taskId;
  }
}

export class IllegalTransitionError extends TaskStoreError {
  override readonly name = "IllegalTransitionError";
  readonly taskId: string;
  readonly from: TaskStatus;
  readonly to: TaskStatus;
  constructor(taskId: string, from: TaskStatus, to: TaskStatus, finished: boolean) {
    const hint = !finished
      ? ""
      : to === "RUNNING" || to === "PENDING"
        ? " A finished task goes back to work only when resumed (update with { resume: true })."
        : " It has already finished.";
    super(`Task ${taskId} cannot go from ${from} to ${to}.${hint}`);
    this.taskId = taskId;
    this.from = from;
    this.to = to;
  }
}

/**
 * A stored file (or key) that cannot be read: not JSON, not the expected shape, or written by a newer
 * version. `location` names it so the user can inspect or move it; the store keeps serving the others.
 */
export class TaskFileError extends TaskStoreError {
  override readonly name = "TaskFileError";
  override readonly kind = "system";
  readonly location: string;
  constructor(location: string, problem: string, options?: { cause?: unknown }) {
    super(`Cannot read task file ${location}: ${problem}`, options);
    this.location = location;
  }
}

export class LockTimeoutError extends TaskStoreError {
  override readonly name = "LockTimeoutError";
  override readonly kind = "system";
  readonly lockPath: string;
  constructor(lockPath: string, holder: string, waitedMs: number) {
    super(
      `Timed out after ${waitedMs} ms waiting for the lock ${lockPath} (held by ${holder}). ` +
        "If no agentry process is using this workspace, delete the lock file.",
    );
    this.lockPath = lockPath;
  }
}
