import { expect, test } from "vitest";
import { runAgentLoop } from "../../src/agent/loop.ts";
import { Session } from "../../src/agent/session/session.ts";
import { userText } from "../../src/model/messages.ts";
import type { ModelRequest } from "../../src/model/model.ts";
import { type ScriptedReply, scriptedModel } from "../../src/testing/index.ts";
import { notificationsIn, taskIdOf } from "./support/notifications.ts";
import { firstUserText, rootTree, tempWorkspace, toolResultsIn } from "./support/subagent-harness.ts";

const lastUserText = (request: ModelRequest) => {
  const last = request.messages.filter((message) => message.role === "user").at(-1);
  return last?.content.map((part) => (part.type === "text" ? part.text : "")).join("") ?? "";
};

test("a notification delivered before a restart is not delivered again after the session is resumed", async () => {
  const ws = await tempWorkspace();
  const model = scriptedModel((request: ModelRequest): ScriptedReply => {
    if (firstUserText(request.messages) === "CHILD") return { text: "child finished" };
    if (lastUserText(request) === "And now?") return { text: "second run" };
    return toolResultsIn(request.messages).length === 0
      ? {
          toolCalls: [
            { name: "task", args: { description: "Quick job", prompt: "CHILD", run_in_background: true } },
          ],
        }
      : { text: notificationsIn(request.messages).length > 0 ? "heard back" : "waiting" };
  });

  // Process 1: the background child finishes; the run waits for it and delivers its notification.
  const first = rootTree({ workspace: ws, model });
  const session = await Session.create({ workspace: ws, agentName: "main", model: model.id });
  await session.append(userText("ROOT"));
  expect(await runAgentLoop(first.config, session, () => {})).toMatchObject({
    status: "completed",
    text: "heard back",
  });
  await first.runtime.shutdown();
  const [task] = await first.runtime.store.list({});
  expect(task).toMatchObject({ status: "COMPLETED", deliveredAt: expect.any(String) });

  // Process 2: a new runtime over the same workspace resumes the root and goes on.
  const second = rootTree({ workspace: ws, model });
  const resumed = await Session.resume(ws, session.id);
  await resumed.append(userText("And now?"));
  expect(await runAgentLoop(second.config, resumed, () => {})).toMatchObject({
    status: "completed",
    text: "second run",
  });

  const request = model.requests.at(-1)!;
  expect(lastUserText(request)).toBe("And now?");
  // The one notification is the one already in the transcript; nothing was delivered a second time.
  expect(notificationsIn(request.messages).map(taskIdOf)).toEqual([task!.taskId]);
  expect(notificationsIn(resumed.messages)).toHaveLength(1);
  expect(await second.runtime.store.get(task!.taskId)).toMatchObject({ deliveredAt: task!.deliveredAt });
});
