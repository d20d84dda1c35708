// Sets cancelRequested on a task from another process, as `agentry tasks cancel` does:
//   node bench/support/cancel-main.ts <workspace> <taskId>
// Prints {at}: epoch ms (performance.timeOrigin + now) just after the write returned.
import { WorkspaceTaskStore } from "../../src/tasks/workspace-task-store.ts";

const [workspace, taskId] = process.argv.slice(2);
if (workspace === undefined || taskId === undefined)
  throw new Error("usage: cancel-main.ts <workspace> <taskId>");
await new WorkspaceTaskStore({ workspace }).requestCancel(taskId);
process.stdout.write(`${JSON.stringify({ at: performance.timeOrigin + performance.now() })}\n`);
