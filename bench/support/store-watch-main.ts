// Watches one TaskRecord from another process:  node bench/support/store-watch-main.ts <workspace> <taskId> <pollMs>
// Prints "ready" once it has read the record, then, each time its status changes, one JSON line
// {status, at} with `at` in epoch ms (performance.timeOrigin + now, comparable across processes).
import { setTimeout as sleep } from "node:timers/promises";
import { WorkspaceTaskStore } from "../../src/tasks/workspace/workspace-task-store.ts";

const [workspace, taskId, poll] = process.argv.slice(2);
if (workspace === undefined || taskId === undefined)
  throw new Error("usage: store-watch-main.ts <workspace> <taskId> [pollMs]");
const pollMs = Number(poll ?? 5);
const store = new WorkspaceTaskStore({ workspace });
let last = (await store.get(taskId))?.status;
process.stdout.write("ready\n");
// The parent closes stdin when it is done with us.
process.stdin.on("end", () => process.exit(0)).resume();
while (true) {
  await sleep(pollMs);
  const status = (await store.get(taskId))?.status;
  if (status !== last) {
    last = status;
    process.stdout.write(`${JSON.stringify({ status, at: performance.timeOrigin + performance.now() })}\n`);
  }
}
