// Run as a separate process by cross-process-updates.test.ts:
//   node update-worker.ts <workspace> <sharedTaskId> <mark> <count> <startAtEpochMs>
// Creates its own record in the shared session, then, from startAt on, updates the shared record
// `count` times: +1 on usage.input and `mark` appended to result.
import { setTimeout as sleep } from "node:timers/promises";
import { WorkspaceTaskStore } from "../../../src/tasks/workspace/workspace-task-store.ts";

const [workspace, taskId, mark, count, startAt] = process.argv.slice(2);
if (!workspace || !taskId || !mark || !count || !startAt)
  throw new Error("usage: <workspace> <taskId> <mark> <count> <startAt>");

const store = new WorkspaceTaskStore({ workspace });
await sleep(Math.max(0, Number(startAt) - Date.now()));
await store.create({
  taskId: `own-${mark}`,
  agentType: "explore",
  parentAgentId: "main",
  parentSessionId: "shared",
  childSessionId: `own-${mark}`,
  description: `worker ${mark}`,
  owner: `worker:${process.pid}`,
  background: true,
});
for (let i = 0; i < Number(count); i++) {
  await store.update(taskId, (record) => ({
    usage: { ...record.usage!, input: record.usage!.input + 1 },
    result: `${record.result ?? ""}${mark}`,
  }));
}
