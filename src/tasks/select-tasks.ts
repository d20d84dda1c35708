import { TaskStoreError } from "./task-errors.ts";
import { TASK_STATUSES, type TaskRecord, type TaskStatus } from "./task-record.ts";
import type { TaskListQuery } from "./task-store.ts";

/** Checks a list query before any I/O, so a bad limit or status fails the same way in every backend. */
export function checkListQuery(query: TaskListQuery): void {
  const { limit } = query;
  if (limit !== undefined && !(Number.isInteger(limit) && limit > 0)) {
    throw new TaskStoreError(`list: "limit" must be a positive integer, got ${JSON.stringify(limit)}.`);
  }
  const statuses: readonly unknown[] =
    query.status === undefined ? [] : typeof query.status === "string" ? [query.status] : query.status;
  for (const status of statuses) {
    if (!(TASK_STATUSES as readonly unknown[]).includes(status)) {
      throw new TaskStoreError(
        `list: unknown status ${JSON.stringify(status)}; use one of ${TASK_STATUSES.join(", ")}.`,
      );
    }
  }
}

/** Filters, orders (newest first; createdAt, then taskId) and limits records: `list` for every backend. */
export function selectTasks(records: Iterable<TaskRecord>, query: TaskListQuery): TaskRecord[] {
  const statuses: readonly TaskStatus[] | undefined =
    query.status === undefined ? undefined : typeof query.status === "string" ? [query.status] : query.status;
  const keyed: { record: TaskRecord; at: number }[] = [];
  for (const record of records) {
    if (statuses && !statuses.includes(record.status)) continue;
    if (query.parentAgentId !== undefined && record.parentAgentId !== query.parentAgentId) continue;
    if (query.parentSessionId !== undefined && record.parentSessionId !== query.parentSessionId) continue;
    keyed.push({ record, at: Date.parse(record.createdAt) });
  }
  keyed.sort(
    (a, b) =>
      b.at - a.at || (a.record.taskId < b.record.taskId ? 1 : a.record.taskId > b.record.taskId ? -1 : 0),
  );
  const selected = keyed.map((entry) => entry.record);
  return query.limit === undefined ? selected : selected.slice(0, query.limit);
}
