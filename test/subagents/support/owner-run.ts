// An owning process for the orphan tests: node owner-run.ts <workspace>
// Runs a root whose background child runs `bash` (its pid goes to <workspace>/pid.txt) and waits for
// it; prints "ready <taskId>" once the child's record says RUNNING and its bash runs.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { runAgentLoop } from "../../../src/agent/loop.ts";
import { Session } from "../../../src/agent/session/session.ts";
import { userText } from "../../../src/model/messages.ts";
import { scriptedModel } from "../../../src/testing/index.ts";
import { firstUserText, rootTree, toolResultsIn } from "./subagent-harness.ts";

const workspace = process.argv[2];
if (!workspace) throw new Error("usage: owner-run.ts <workspace>");
const pidFile = join(workspace, "pid.txt");
const model = scriptedModel((request) => {
  if (firstUserText(request.messages) === "CHILD")
    return { toolCalls: [{ name: "bash", args: { command: `echo $$ > ${pidFile}; exec sleep 60` } }] };
  return toolResultsIn(request.messages).length === 0
    ? {
        toolCalls: [
          { name: "task", args: { description: "Doomed job", prompt: "CHILD", run_in_background: true } },
        ],
      }
    : { text: "waiting" };
});
const { config, runtime } = rootTree({
  workspace,
  model,
  limits: { heartbeatMs: 100, orphanTimeoutMs: 1000 },
});
const session = await Session.create({ workspace, agentName: "main", model: model.id });
await session.append(userText("ROOT"));
void runAgentLoop(config, session, () => {});
for (;;) {
  const [task] = await runtime.store.list({ status: "RUNNING" });
  if (task && existsSync(pidFile)) {
    process.stdout.write(`ready ${task.taskId}\n`);
    break;
  }
  await sleep(20);
}
