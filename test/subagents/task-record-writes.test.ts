import { expect, test } from "vitest";
import type { NewTaskRecord } from "../../src/tasks/task-record.ts";
import type { TaskStore } from "../../src/tasks/task-store.ts";
import { WorkspaceTaskStore } from "../../src/tasks/workspace/workspace-task-store.ts";
import { scriptedModel } from "../../src/testing/index.ts";
import { firstUserText, rootTree, runTree, tempWorkspace } from "./support/subagent-harness.ts";

/** The real workspace store, logging each record's status as created and as each update leaves it. */
function loggingStore(ws: string): { store: TaskStore; log: Map<string, string[]> } {
  const inner = new WorkspaceTaskStore({ workspace: ws });
  const log = new Map<string, string[]>();
  const note = (taskId: string, entry: string) => log.set(taskId, [...(log.get(taskId) ?? []), entry]);
  const store: TaskStore = Object.assign(Object.create(inner) as TaskStore, {
    async create(input: NewTaskRecord) {
      const record = await inner.create(input);
      note(record.taskId, `create ${record.status}`);
      return record;
    },
    async update(...args: Parameters<TaskStore["update"]>) {
      const before = await inner.get(args[0]);
      const record = await inner.update(...args);
      if (record.status !== before?.status) note(record.taskId, `update ${record.status}`);
      return record;
    },
  });
  return { store, log };
}

test("a child that gets a slot at once is created RUNNING; a queued one is PENDING until its slot frees", async () => {
  const ws = await tempWorkspace();
  const { store, log } = loggingStore(ws);
  const model = scriptedModel((request) => {
    const prompt = firstUserText(request.messages);
    if (prompt === "ROOT") {
      if (request.messages.length > 1) return { text: "all done" };
      return {
        toolCalls: [1, 2, 3].map((n) => ({
          name: "task",
          args: { description: `Part ${n}`, prompt: `PART ${n}`, subagent_type: "explore" },
        })),
      };
    }
    return { text: `report for ${prompt}`, delayMs: 100 };
  });
  const { config } = rootTree({ workspace: ws, model, taskStore: store, limits: { maxConcurrent: 2 } });

  const run = await runTree(config, "ROOT");

  expect(run.outcome).toMatchObject({ status: "completed", text: "all done" });
  const histories = [...log.values()].map((entries) => entries.join(" → ")).sort();
  expect(histories).toEqual([
    "create PENDING → update RUNNING → update COMPLETED",
    "create RUNNING → update COMPLETED",
    "create RUNNING → update COMPLETED",
  ]);
});
