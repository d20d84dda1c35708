import { join } from "node:path";
import { expect, test } from "vitest";
import { runAgentLoop } from "../../src/agent/loop.ts";
import { Session } from "../../src/agent/session/session.ts";
import type { AgentEvent } from "../../src/contracts/events.ts";
import { userText } from "../../src/model/messages.ts";
import type { ModelRequest } from "../../src/model/model.ts";
import type { TaskRecord } from "../../src/tasks/task-record.ts";
import { type ScriptedReply, scriptedModel } from "../../src/testing/index.ts";
import { isRunning, pidFrom, until } from "../support/processes.ts";
import { notificationsIn } from "./support/notifications.ts";
import { firstUserText, rootTree, tempWorkspace, toolResultsIn } from "./support/subagent-harness.ts";
import { runTasksCli } from "./support/tasks-cli-process.ts";

test("another process sees the running child and `agentry tasks cancel` ends it and its bash", async () => {
  const ws = await tempWorkspace();
  const pidFile = join(ws, "pid.txt");
  const model = scriptedModel((request: ModelRequest): ScriptedReply => {
    if (firstUserText(request.messages) === "CHILD")
      return { toolCalls: [{ name: "bash", args: { command: `echo $$ > ${pidFile}; exec sleep 60` } }] };
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
  let childStarted = 0;
  const onEvent = (event: AgentEvent) => {
    if (event.type === "agent_start" && event.agentPath.length === 2) childStarted = Date.now();
  };
  const runStarted = Date.now();
  const running = runAgentLoop(config, session, onEvent);

  expect(await until(() => childStarted > 0, 10_000)).toBe(true);
  const listed = await runTasksCli(["tasks", "list", "--json", "--cwd", ws], ws);
  expect(listed.code).toBe(0);
  const [task] = JSON.parse(listed.stdout) as TaskRecord[];
  expect(task).toMatchObject({
    agentType: "general-purpose",
    description: "Long job",
    parentSessionId: session.id,
    background: true,
    owner: runtime.owner,
  });
  expect(["PENDING", "RUNNING"]).toContain(task?.status);
  // The record exists before the child starts, so another process can see the task from its first moment.
  expect(Date.parse(task!.createdAt)).toBeGreaterThanOrEqual(runStarted);
  expect(Date.parse(task!.createdAt)).toBeLessThanOrEqual(childStarted);

  const pid = await pidFrom(pidFile);
  const shown = await runTasksCli(["tasks", "show", task!.taskId, "--cwd", ws], ws);
  expect(shown.stdout).toMatch(/^task: +sub-/);
  expect(shown.stdout).toContain("status:           RUNNING");

  let requestedAt = 0;
  const watchRequest = until(async () => {
    if ((await runtime.store.get(task!.taskId))?.cancelRequested) requestedAt ||= Date.now();
    return requestedAt > 0 || !isRunning(pid);
  }, 20_000);
  const cancelled = await runTasksCli(["tasks", "cancel", task!.taskId, "--cwd", ws], ws);
  expect(await watchRequest).toBe(true);
  // The owner polls cancelRequested (every second by default) and kills the bash's process group.
  const OWNER_REACTS_MS = 5_000;
  expect(await until(() => !isRunning(pid), OWNER_REACTS_MS)).toBe(true);
  expect(cancelled).toMatchObject({ code: 0, stderr: "" });
  expect(cancelled.stdout).toBe(`Task ${task!.taskId} cancelled by its owner ${runtime.owner}.\n`);
  expect(await runtime.store.get(task!.taskId)).toMatchObject({ status: "CANCELLED", reason: "cancelled" });

  const outcome = await running;
  expect(outcome).toMatchObject({ status: "completed", text: "heard back" });
  const [note] = notificationsIn(session.messages);
  expect(note).toContain("<status>cancelled</status>\n<reason>cancelled</reason>");
  expect(note).toContain("cancelled from another process (agentry tasks cancel)");
});
