import { expect, test } from "vitest";
import { runAgentLoop } from "../../src/agent/loop.ts";
import { Session } from "../../src/agent/session/session.ts";
import { type Message, userText } from "../../src/model/messages.ts";
import type { ModelRequest } from "../../src/model/model.ts";
import { WorkspaceTaskStore } from "../../src/tasks/workspace/workspace-task-store.ts";
import { type ScriptedReply, scriptedModel } from "../../src/testing/index.ts";
import { waitFor } from "../support/processes.ts";
import { notificationsIn } from "./support/notifications.ts";
import { firstUserText, rootTree, tempWorkspace, toolResultsIn } from "./support/subagent-harness.ts";

// Another process talks to a working child through the store: `sendMessage` puts a message in the
// record's inbox, the owner delivers it into the child's next turn (as task_send does) and takes it
// out. Meanwhile the owner writes what the child does into the record, for that process to show.

const userTexts = (messages: readonly Message[]) =>
  messages.flatMap((m) =>
    m.role === "user" ? m.content.flatMap((p) => (p.type === "text" ? [p.text] : [])) : [],
  );

test("a message sent through the store reaches the running child's next turn, and leaves its inbox", async () => {
  const ws = await tempWorkspace();
  const model = scriptedModel((request: ModelRequest): ScriptedReply => {
    if (firstUserText(request.messages) === "CHILD") {
      if (userTexts(request.messages).includes("ALSO CHECK b.ts")) return { text: "checked b.ts as asked" };
      if (toolResultsIn(request.messages).length === 0)
        return { toolCalls: [{ name: "bash", args: { command: "sleep 2" } }] };
      return { text: "never heard the message" };
    }
    if (toolResultsIn(request.messages).length === 0)
      return {
        toolCalls: [
          { name: "task", args: { description: "Long job", prompt: "CHILD", run_in_background: true } },
        ],
      };
    return { text: notificationsIn(request.messages).length > 0 ? "heard back" : "waiting for it" };
  });
  const { config, runtime } = rootTree({ workspace: ws, model });
  const session = await Session.create({ workspace: ws, agentName: "main", model: model.id });
  await session.append(userText("ROOT"));
  const running = runAgentLoop(config, session, () => {});

  // Another process's view of the same workspace.
  const other = new WorkspaceTaskStore({ workspace: ws });
  let taskId = "";
  await waitFor(
    async () => {
      const [task] = await other.list();
      taskId = task?.taskId ?? "";
      return task?.activity?.tools.some((tool) => tool.name === "bash" && tool.arg === "sleep 2") === true;
    },
    20_000,
    "the owner to write that its child runs sleep 2",
  );
  const seen = await other.get(taskId);
  expect(seen).toMatchObject({ status: "RUNNING", activity: { turns: 1 } });

  const sent = await other.sendMessage(taskId, {
    id: "m-1",
    text: "ALSO CHECK b.ts",
    at: new Date().toISOString(),
  });
  expect(sent.inbox?.map((message) => message.id)).toEqual(["m-1"]);

  expect(await running).toMatchObject({ status: "completed", text: "heard back" });
  const done = await other.get(taskId);
  expect(done).toMatchObject({ status: "COMPLETED", result: "checked b.ts as asked", inbox: [] });
  await runtime.shutdown();
});
