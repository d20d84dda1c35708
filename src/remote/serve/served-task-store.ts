import { type ListTasksRequest, type ListTasksResponse, type Task, TaskState } from "@a2a-js/sdk";
import type { TaskStore } from "@a2a-js/sdk/server";
import { recordTask } from "./record-task.ts";
import type { ServedRecords } from "./served-records.ts";

/** Finished tasks kept whole in memory per agent, when `keep` is not given. */
export const DEFAULT_KEPT_TASKS = 100;

const FINISHED = new Set<TaskState>([
  TaskState.TASK_STATE_COMPLETED,
  TaskState.TASK_STATE_FAILED,
  TaskState.TASK_STATE_CANCELED,
  TaskState.TASK_STATE_REJECTED,
]);

const DEFAULT_PAGE_SIZE = 50;

/**
 * The SDK's `TaskStore` of one served agent: unfinished tasks and the latest `keep` finished ones in
 * memory, whole (history and all); every other task from the workspace's records (`ServedRecords`),
 * which outlive the process. So GetTask and ListTasks answer for tasks of an earlier server on this
 * workspace too, and memory does not grow with the tasks served.
 */
export class ServedTaskStore implements TaskStore {
  private readonly agent: string;
  private readonly keep: number;
  private readonly records: ServedRecords | undefined;
  /** In the order they were last saved: the oldest finished ones go first. */
  private readonly tasks = new Map<string, Task>();

  constructor(agent: string, options: { keep?: number; records?: ServedRecords } = {}) {
    this.agent = agent;
    this.keep = options.keep ?? DEFAULT_KEPT_TASKS;
    this.records = options.records;
  }

  async save(task: Task): Promise<void> {
    this.tasks.delete(task.id);
    this.tasks.set(task.id, structuredClone(task));
    if (this.tasks.size <= this.keep) return;
    for (const [id, kept] of this.tasks) {
      if (this.tasks.size <= this.keep) break;
      if (FINISHED.has(kept.status?.state ?? TaskState.TASK_STATE_UNSPECIFIED)) this.tasks.delete(id);
    }
  }

  async load(taskId: string): Promise<Task | undefined> {
    const kept = this.tasks.get(taskId);
    if (kept !== undefined) return structuredClone(kept);
    const record = await this.records?.task(taskId, this.agent);
    return record === undefined ? undefined : recordTask(record);
  }

  async list(params: ListTasksRequest): Promise<ListTasksResponse> {
    const { contextId, status, statusTimestampAfter, pageToken } = params;
    const pageSize = params.pageSize ?? DEFAULT_PAGE_SIZE;
    const byId = new Map<string, Task>();
    const recorded = (await this.records?.tasks(this.agent, contextId || undefined)) ?? [];
    for (const record of recorded) byId.set(record.taskId, recordTask(record));
    for (const task of this.tasks.values())
      if (!contextId || task.contextId === contextId) byId.set(task.id, task);
    const after = statusTimestampAfter ? Date.parse(statusTimestampAfter) : undefined;
    let tasks = [...byId.values()].filter(
      (task) =>
        (status === undefined ||
          status === TaskState.TASK_STATE_UNSPECIFIED ||
          task.status?.state === status) &&
        (after === undefined || Date.parse(task.status?.timestamp ?? "") >= after),
    );
    tasks.sort((a, b) => cursorOf(b).localeCompare(cursorOf(a)));
    const totalSize = tasks.length;
    if (pageToken) {
      const cursor = Buffer.from(pageToken, "base64url").toString("utf8");
      tasks = tasks.filter((task) => cursorOf(task) < cursor);
    }
    const page = tasks.slice(0, pageSize);
    const last = page.at(-1);
    return {
      tasks: page.map((task) => ({
        ...structuredClone(task),
        artifacts: params.includeArtifacts === true ? structuredClone(task.artifacts) : [],
      })),
      nextPageToken:
        last !== undefined && tasks.length > page.length
          ? Buffer.from(cursorOf(last)).toString("base64url")
          : "",
      pageSize,
      totalSize,
    };
  }
}

/** Newest first: by status time, then id; a page token is the last one's. */
function cursorOf(task: Task): string {
  return `${task.status?.timestamp ?? ""}|${task.id}`;
}
