import { join } from "node:path";
import { expect, test } from "vitest";
import type { ModelRequest } from "../../src/model/model.ts";
import { type ScriptedReply, scriptedModel } from "../../src/testing/index.ts";
import { isRunning, pidFrom, until } from "../support/processes.ts";
import { notificationsIn, taskIdIn } from "./support/notifications.ts";
import {
  firstUserText,
  rootTree,
  runTree,
  tempWorkspace,
  toolResultsIn,
} from "./support/subagent-harness.ts";

test("task_cancel stops a child and the subagent it started; their bash dies and both records say CANCELLED", async () => {
  const ws = await tempWorkspace();
  const pidFile = join(ws, "pid.txt");
  const model = scriptedModel(async (request: ModelRequest): Promise<ScriptedReply> => {
    const prompt = firstUserText(request.messages);
    const results = toolResultsIn(request.messages);
    if (prompt === "LEAF")
      return { toolCalls: [{ name: "bash", args: { command: `echo $$ > ${pidFile}; exec sleep 30` } }] };
    if (prompt === "MID")
      return results.length === 0
        ? { toolCalls: [{ name: "task", args: { description: "Leaf work", prompt: "LEAF" } }] }
        : { text: "mid done" };
    if (results.length === 0)
      return {
        toolCalls: [
          { name: "task", args: { description: "Mid work", prompt: "MID", run_in_background: true } },
        ],
      };
    if (results.length === 1) {
      await pidFrom(pidFile);
      return { toolCalls: [{ name: "task_cancel", args: { task_id: taskIdIn(results[0]!.content) } }] };
    }
    if (results.length === 2) return { toolCalls: [{ name: "task_list", args: { status: "CANCELLED" } }] };
    return { text: "ok" };
  });
  const { config, runtime } = rootTree({ workspace: ws, model, limits: { maxDepth: 2 } });

  const running = runTree(config, "ROOT");
  const pid = await pidFrom(pidFile);
  const run = await running;
  expect(await until(() => !isRunning(pid), 3_000)).toBe(true);
  const [started, cancelled, listed] = toolResultsIn(run.session.messages);
  const midId = taskIdIn(started!.content)!;
  expect(cancelled?.content).toBe(
    `Cancelled subagent general-purpose (task_id ${midId}) and 1 running subagent(s) it started; its record says CANCELLED. Continue it later with task and its task_id if needed.`,
  );
  const records = await runtime.store.list({});
  expect(records.map((r) => [r.agentPath?.join("/"), r.status, r.reason])).toEqual(
    expect.arrayContaining([
      ["main/general-purpose-1", "CANCELLED", "cancelled"],
      ["main/general-purpose-1/general-purpose-2", "CANCELLED", "cancelled"],
    ]),
  );
  expect(records).toHaveLength(2);
  // task_list shows the caller's own tasks only: the grandchild belongs to its parent.
  expect(listed?.content).toMatch(
    new RegExp(
      `^1 subagent task\\(s\\), newest first:\\n- ${midId} · general-purpose · CANCELLED \\(cancelled\\) · [\\d.]+(ms|s) · background · "Mid work"$`,
    ),
  );
  // The parent learnt the outcome from task_cancel itself: no notification repeats it.
  expect(notificationsIn(run.session.messages)).toEqual([]);
  expect(run.outcome.status).toBe("completed");
});

test("task_cancel of a finished child changes nothing", async () => {
  const workspace = await tempWorkspace();
  const model = scriptedModel((request: ModelRequest): ScriptedReply => {
    const results = toolResultsIn(request.messages);
    if (firstUserText(request.messages) !== "ROOT") return { text: "quick" };
    if (results.length === 0)
      return { toolCalls: [{ name: "task", args: { description: "Quick", prompt: "Q" } }] };
    if (results.length === 1)
      return { toolCalls: [{ name: "task_cancel", args: { task_id: taskIdIn(results[0]!.content) } }] };
    return { text: "ok" };
  });
  const { config } = rootTree({ workspace, model });

  const run = await runTree(config, "ROOT");
  expect(toolResultsIn(run.session.messages)[1]?.content).toMatch(
    /^Subagent general-purpose \(task_id sub-[^)]+\) had already finished: COMPLETED\. Nothing to cancel\.$/,
  );
});
