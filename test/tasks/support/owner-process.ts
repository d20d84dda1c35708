// Run as a separate process by sweeper-kill.test.ts: node owner-process.ts <workspace>
// Owns a RUNNING task, heartbeats it and keeps writing to it until it is killed; prints "ready".
import { startHeartbeat } from "../../../src/tasks/heartbeat.ts";
import { currentOwner } from "../../../src/tasks/owner.ts";
import { WorkspaceTaskStore } from "../../../src/tasks/workspace/workspace-task-store.ts";

const workspace = process.argv[2];
if (!workspace) throw new Error("usage: owner-process.ts <workspace>");
const store = new WorkspaceTaskStore({ workspace });
await store.create({
  taskId: "victim",
  agentType: "general-purpose",
  parentAgentId: "main",
  parentSessionId: "owner-session",
  childSessionId: "victim",
  description: "Refactor the parser",
  status: "RUNNING",
  owner: currentOwner(),
  usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
  background: true,
});
startHeartbeat(store, () => ["victim"], 10);
process.stdout.write("ready\n");
for (;;) {
  await store.update("victim", (record) => ({
    usage: { ...record.usage!, output: record.usage!.output + 1 },
  }));
}
