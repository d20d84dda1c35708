// The first process of the kill-mid-child scenario: node mid-child-run.ts <workspace> <model-server-url>
// Its root (persisted session) hands a job to the worker and waits for it; the worker's bash runs long.
// Prints "session <rootSessionId>" at once; the test kills it with SIGKILL while the worker works.
import { runAgentLoop } from "../../../src/agent/loop.ts";
import { Session } from "../../../src/agent/session/session.ts";
import { userText } from "../../../src/model/messages.ts";
import { scriptedModel } from "../../../src/testing/index.ts";
import { scoutTree } from "./resume-scenario.ts";
import { toolResultsIn } from "./subagent-harness.ts";

const [workspace, serverUrl] = process.argv.slice(2);
if (!workspace || !serverUrl) throw new Error("usage: mid-child-run.ts <workspace> <model-server-url>");
const root = scriptedModel((request) =>
  toolResultsIn(request.messages).length === 0
    ? {
        toolCalls: [
          {
            name: "task",
            args: { description: "Long job", prompt: "Do the long job.", subagent_type: "worker" },
          },
        ],
      }
    : { text: "done" },
);
const { config } = scoutTree(workspace, serverUrl, root);
const session = await Session.create({ workspace, agentName: "main", model: root.id });
await session.append(userText("Hand the long job to the worker."));
process.stdout.write(`session ${session.id}\n`);
await runAgentLoop(config, session, () => {});
