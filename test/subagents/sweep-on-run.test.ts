import { expect, test } from "vitest";
import { runAgentLoop } from "../../src/agent/loop.ts";
import { Session } from "../../src/agent/session/session.ts";
import { userText } from "../../src/model/messages.ts";
import type { ModelRequest } from "../../src/model/model.ts";
import { formatIdentity, localProcess } from "../../src/state/process-identity.ts";
import type { NewTaskRecord } from "../../src/tasks/task-record.ts";
import { WorkspaceTaskStore } from "../../src/tasks/workspace/workspace-task-store.ts";
import { type ScriptedReply, scriptedModel } from "../../src/testing/index.ts";
import { waitFor } from "../support/processes.ts";
import { deadPid } from "../tasks/support/dead-pid.ts";
import { notificationsIn } from "./support/notifications.ts";
import { firstUserText, rootTree, tempWorkspace, toolResultsIn } from "./support/subagent-harness.ts";

const orphan = (taskId: string, parentSessionId: string, owner: string): NewTaskRecord => ({
  taskId,
  agentType: "explore",
  parentAgentId: "main",
  parentSessionId,
  childSessionId: taskId,
  description: "Left behind",
  status: "RUNNING",
  owner,
  background: true,
});

test("a resumed run sweeps at start-up: its child left RUNNING by a dead process is notified as FAILED orphaned", async () => {
  const ws = await tempWorkspace();
  const session = await Session.create({ workspace: ws, agentName: "main", model: "scripted:model" });
  await new WorkspaceTaskStore({ workspace: ws }).create(
    orphan("sub-left-behind", session.id, formatIdentity(localProcess(await deadPid()))),
  );
  const model = scriptedModel(
    (request: ModelRequest): ScriptedReply => ({
      text: `notes: ${notificationsIn(request.messages).length}`,
    }),
  );
  const { config, runtime } = rootTree({ workspace: ws, model });
  await session.append(userText("ROOT"));

  const outcome = await runAgentLoop(config, session, () => {});
  expect(outcome.text).toBe("notes: 1");
  const [note] = notificationsIn(model.requests[0]!.messages);
  expect(note).toContain("<task-id>sub-left-behind</task-id>");
  expect(note).toContain("<status>failed</status>\n<reason>orphaned</reason>");
  expect(note).toContain('continue it with task_id "sub-left-behind"');
  // Its child of an earlier run ran in the background: the control tools are offered from the start.
  expect(model.requests[0]!.tools.map((tool) => tool.name)).toEqual(
    expect.arrayContaining(["task", "task_send", "task_wait", "task_output", "task_cancel", "task_list"]),
  );
  expect(await runtime.store.get("sub-left-behind")).toMatchObject({ deliveredAt: expect.any(String) });
});

test("while children run, the owner sweeps now and then: another dead owner's task is orphaned", async () => {
  const ws = await tempWorkspace();
  const store = new WorkspaceTaskStore({ workspace: ws });
  // The child answers once the test has seen the sweep: its owner sweeps only while it runs.
  let answerChild = () => {};
  const childMayAnswer = new Promise<void>((resolve) => {
    answerChild = resolve;
  });
  const model = scriptedModel(async (request: ModelRequest): Promise<ScriptedReply> => {
    if (firstUserText(request.messages) === "CHILD") {
      await childMayAnswer;
      return { text: "done" };
    }
    return toolResultsIn(request.messages).length === 0
      ? { toolCalls: [{ name: "task", args: { description: "Busy", prompt: "CHILD" } }] }
      : { text: "ok" };
  });
  const { config } = rootTree({
    workspace: ws,
    model,
    taskStore: store,
    limits: { heartbeatMs: 50, cancelPollMs: 50, orphanTimeoutMs: 400 },
  });
  const session = await Session.create({ workspace: ws, agentName: "main", model: model.id, persist: false });
  await session.append(userText("ROOT"));

  const running = runAgentLoop(config, session, () => {});
  // Created after the start-up sweep, while the child runs.
  await waitFor(async () => (await store.list({})).length > 0, 5_000, "the child's task record");
  await store.create(
    orphan("sub-other", "some-other-session", formatIdentity(localProcess(await deadPid()))),
  );
  await waitFor(
    async () => (await store.get("sub-other"))?.status === "FAILED",
    5_000,
    "the other owner's task to be orphaned",
  );
  answerChild();
  expect(await store.get("sub-other")).toMatchObject({ reason: "orphaned" });
  expect((await running).status).toBe("completed");
});
