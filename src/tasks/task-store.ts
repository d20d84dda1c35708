import type { TaskFileError } from "./task-errors.ts";
import type { NewTaskRecord, TaskMessage, TaskPatch, TaskRecord, TaskStatus } from "./task-record.ts";

/**
 * Where TaskRecords live. Several processes may share one store (a parent running children, an
 * `agentry tasks cancel` in another terminal), so every write is a read-modify-write under the
 * backend's lock: no update is lost. Every backend passes `test/tasks/task-store.conformance.ts`.
 *
 * Records returned are frozen snapshots; change them only through the store.
 */
export interface TaskStore {
  /** Stores a new record (status PENDING unless given). Throws `TaskExistsError` for a taken id. */
  create(record: NewTaskRecord): Promise<TaskRecord>;
  /** The record, or `undefined` when no task has that id. */
  get(taskId: string): Promise<TaskRecord | undefined>;
  /**
   * Applies a patch, or a function of the current record returning one, atomically. Returns the new
   * record (the same one when the patch changes nothing; an empty patch writes nothing). Throws
   * `TaskNotFoundError`, `IllegalTransitionError` (e.g. COMPLETED → RUNNING without `resume`) or
   * `TaskStoreError` for an invalid value.
   */
  update(taskId: string, patch: TaskUpdate, options?: UpdateOptions): Promise<TaskRecord>;
  /** Newest first (by createdAt, then taskId). */
  list(query?: TaskListQuery): Promise<TaskRecord[]>;
  /**
   * Sets `cancelRequested` for the owner to see; a no-op on a finished task. Does not count as the
   * owner's heartbeat. Returns the record.
   */
  requestCancel(taskId: string): Promise<TaskRecord>;
  /**
   * Bumps `updatedAt` of the PENDING/RUNNING tasks among `taskIds` (finished ones are left alone),
   * with one write per stored file. Throws `TaskNotFoundError` before writing if an id is unknown.
   */
  heartbeat(taskIds: readonly string[]): Promise<TaskRecord[]>;
  /**
   * Puts `message` in the task's `inbox` for its owner to deliver into the child's next turn (and take
   * out): how another process talks to a child, as `requestCancel` is how it stops one. A no-op on a
   * finished task, a full inbox or an id already there; the record returned says whether it is queued.
   * Does not count as the owner's heartbeat. Throws `TaskNotFoundError` for an unknown id.
   */
  sendMessage(taskId: string, message: TaskMessage): Promise<TaskRecord>;
  /**
   * Sets `deliveredAt` on the finished tasks among `taskIds` that have none yet and returns exactly
   * those: the caller notifies the parent of what is returned, so each completion is delivered once
   * even when two callers race. Unknown ids throw `TaskNotFoundError` before anything is written.
   */
  markDelivered(taskIds: readonly string[]): Promise<TaskRecord[]>;
  /**
   * Calls `listener` soon after records change, in this process or another, so a caller can react
   * without polling. Optional: a backend that cannot push has none, and its callers poll. Returns the
   * function that ends the watch.
   */
  watch?(listener: (change: TaskChange) => void): () => void;
  /**
   * The journals of workflow runs (their lines, in order), kept with the records so a run can be
   * resumed from any machine that reaches the store. Optional: without it, a run's journal is a file
   * of the workspace that ran it (`src/workflows/replay-journal.ts`).
   */
  readonly journals?: RunJournals;
}

/** Where workflow runs keep their journals: one list of lines per run id. */
export interface RunJournals {
  /** Appends lines to a run's journal, in order, once each is stored (the run's id: a safe id). */
  append(runId: string, lines: readonly string[]): Promise<void>;
  /** A run's lines in the order written, or undefined when there is no such run. */
  read(runId: string): Promise<string[] | undefined>;
}

/** What a watcher of a store hears. */
export type TaskChange =
  /** These records were written. */
  | { kind: "changed"; taskIds: readonly string[] }
  /** Changes may have been missed (the connection was lost, and is back): read again what matters. */
  | { kind: "resync" };

export type TaskUpdate = TaskPatch | ((record: TaskRecord) => TaskPatch);

export interface UpdateOptions {
  /** Allow a finished task back to PENDING/RUNNING: it is being continued. */
  resume?: boolean;
  /**
   * Allow a task FAILED `orphaned` to take any status: its owner was only silent and records how it
   * really ended. The caller checks, in a patch function, that the record is still its own.
   */
  reclaim?: boolean;
}

export interface TaskListQuery {
  status?: TaskStatus | readonly TaskStatus[];
  parentAgentId?: string;
  parentSessionId?: string;
  /** At most this many (a positive integer), after ordering. */
  limit?: number;
  /**
   * Called with each stored file that cannot be read, which `list` then skips. Without it, `list`
   * throws the first such `TaskFileError`: records are never dropped silently.
   */
  onUnreadable?: (error: TaskFileError) => void;
}
