// Sets cancelRequested on a task from another process, as `agentry tasks cancel` does:
//   node bench/support/cancel-main.ts <workspace> <taskId>
// Prints {at}: epoch ms (performance.timeOrigin + now) just before the write starts, so the latency
// counts the whole cancel, write included (and is never negative: the owner may see the new file
// before the writer's directory fsync returns).
import { WorkspaceTaskStore } from "../../src/tasks/workspace/workspace-task-store.ts";

const [workspace, taskId] = process.argv.slice(2);
if (workspace === undefined || taskId === undefined)
  throw new Error("usage: cancel-main.ts <workspace> <taskId>");
const store = new WorkspaceTaskStore({ workspace });
const at = performance.timeOrigin + performance.now();
await store.requestCancel(taskId);
process.stdout.write(`${JSON.stringify({ at })}\n`);
