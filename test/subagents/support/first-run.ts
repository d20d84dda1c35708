// The first process of the restart scenario: node first-run.ts <workspace> <model-server-url>
// Runs a root (persisted session) that starts the scout once; prints {"rootSessionId","taskId"}.
import { runAgentLoop } from "../../../src/agent/loop.ts";
import { Session } from "../../../src/agent/session/session.ts";
import { userText } from "../../../src/model/messages.ts";
import { scriptedModel } from "../../../src/testing/index.ts";
import { scoutTree } from "./resume-scenario.ts";
import { toolResultsIn } from "./subagent-harness.ts";

const [workspace, serverUrl] = process.argv.slice(2);
if (!workspace || !serverUrl) throw new Error("usage: first-run.ts <workspace> <model-server-url>");
const root = scriptedModel((request) =>
  toolResultsIn(request.messages).length === 0
    ? {
        toolCalls: [
          {
            name: "task",
            args: {
              description: "Remember it",
              prompt: "Remember the codeword PELICAN.",
              subagent_type: "scout",
            },
          },
        ],
      }
    : { text: "done" },
);
const { config } = scoutTree(workspace, serverUrl, root);
const session = await Session.create({ workspace, agentName: "main", model: root.id });
await session.append(userText("ROOT"));
const outcome = await runAgentLoop(config, session, () => {});
const result = toolResultsIn(session.messages)[0]?.content ?? "";
const taskId = /task_id="(sub-[^"]+)"/.exec(result)?.[1];
process.stdout.write(
  `${JSON.stringify({ rootSessionId: session.id, taskId, status: outcome.status, result })}\n`,
);
