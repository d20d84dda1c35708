import { join } from "node:path";
import { expect, test } from "vitest";
import type { Message } from "../../src/model/messages.ts";
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

const userTexts = (messages: readonly Message[]) =>
  messages.flatMap((m) => (m.role === "user" ? m.content.map((p) => (p.type === "text" ? p.text : "")) : []));
const start = (prompt: string, background: boolean) => ({
  name: "task",
  args: { description: "Helper", prompt, run_in_background: background },
});

test("task_send to a running child is queued into its next turn", async () => {
  const workspace = await tempWorkspace();
  const model = scriptedModel((request: ModelRequest): ScriptedReply => {
    const results = toolResultsIn(request.messages);
    if (firstUserText(request.messages) === "WORK")
      return results.length === 0
        ? { toolCalls: [{ name: "bash", args: { command: "sleep 0.8" } }] }
        : { text: `saw: ${userTexts(request.messages).slice(1).join(" + ")}` };
    if (results.length === 0) return { toolCalls: [start("WORK", true)] };
    if (results.length === 1) {
      const id = taskIdIn(results[0]!.content);
      return {
        toolCalls: [{ name: "task_send", args: { task_id: id, message: "ALSO CHECK B" } }],
        delayMs: 200,
      };
    }
    return { text: "ok" };
  });
  const { config } = rootTree({ workspace, model });

  const run = await runTree(config, "ROOT");
  const sent = toolResultsIn(run.session.messages)[1]!;
  expect(sent.content).toMatch(
    /^Queued for general-purpose \(task_id sub-[^)]+\): it reads your message at its next turn\. Its answer comes with its result, as a <task-notification> when it finishes\.$/,
  );
  const [note] = notificationsIn(run.session.messages);
  expect(note).toContain("<result>\nsaw: ALSO CHECK B\n</result>");
  // The message reached the child after its tool results, at its next model call.
  const childLast = model.requests.filter((r) => firstUserText(r.messages) === "WORK").at(-1)!;
  expect(childLast.messages.map((m) => m.role)).toEqual(["user", "assistant", "tool_result", "user"]);
});

test("task_send to an idle child continues it with its history and returns its reply", async () => {
  const workspace = await tempWorkspace();
  const model = scriptedModel((request: ModelRequest): ScriptedReply => {
    const results = toolResultsIn(request.messages);
    if (firstUserText(request.messages) === "FIRST")
      return { text: `answers so far: ${userTexts(request.messages).join(", ")}` };
    if (results.length === 0) return { toolCalls: [start("FIRST", false)] };
    if (results.length === 1) {
      const id = taskIdIn(results[0]!.content);
      return { toolCalls: [{ name: "task_send", args: { task_id: id, message: "SECOND" } }] };
    }
    return { text: "ok" };
  });
  const { config, runtime } = rootTree({ workspace, model });

  const run = await runTree(config, "ROOT");
  const [first, reply] = toolResultsIn(run.session.messages);
  const id = taskIdIn(first!.content);
  expect(reply?.isError).toBe(false);
  expect(reply?.content).toMatch(
    new RegExp(
      `^<task_result task_id="${id}" agent="general-purpose" status="completed">\\nanswers so far: FIRST, SECOND\\n`,
    ),
  );
  expect(notificationsIn(run.session.messages)).toEqual([]);
  expect(runtime.started).toBe(1);
  expect(await runtime.store.get(id!)).toMatchObject({
    status: "COMPLETED",
    result: "answers so far: FIRST, SECOND",
  });
});

test("task_send with interrupt stops the child's current step (its bash dies) and it turns to the message", async () => {
  const ws = await tempWorkspace();
  const pidFile = join(ws, "pid.txt");
  const model = scriptedModel((request: ModelRequest): ScriptedReply => {
    const results = toolResultsIn(request.messages);
    if (firstUserText(request.messages) === "LONG")
      return results.length === 0
        ? // Longer than any test bound: not interrupted, the run would hang.
          { toolCalls: [{ name: "bash", args: { command: `echo $$ > ${pidFile}; exec sleep 600` } }] }
        : { text: `stopped on: ${userTexts(request.messages).at(-1)}` };
    if (results.length === 0) return { toolCalls: [start("LONG", true)] };
    if (results.length === 1) {
      const id = taskIdIn(results[0]!.content);
      return {
        toolCalls: [
          { name: "task_send", args: { task_id: id, message: "STOP AND REPORT", interrupt: true } },
        ],
        delayMs: 300,
      };
    }
    return { text: "ok" };
  });
  const { config, runtime } = rootTree({ workspace: ws, model });

  const running = runTree(config, "ROOT");
  const pid = await pidFrom(pidFile);
  const run = await running;
  expect(await until(() => !isRunning(pid), 3_000)).toBe(true);
  expect(toolResultsIn(run.session.messages)[1]?.content).toContain(
    "its current step was interrupted and it turns to your message now",
  );
  const [note] = notificationsIn(run.session.messages);
  expect(note).toContain("<status>completed</status>");
  expect(note).toContain("stopped on: STOP AND REPORT");
  const [record] = await runtime.store.list({ parentSessionId: run.session.id });
  expect(record?.status).toBe("COMPLETED");
});

test("task_send to a finished background child continues it in the background", async () => {
  const workspace = await tempWorkspace();
  let rootTurn = 0;
  const model = scriptedModel((request: ModelRequest): ScriptedReply => {
    if (firstUserText(request.messages) === "BG")
      return { text: `reply to ${userTexts(request.messages).at(-1)}` };
    rootTurn++;
    if (rootTurn === 1) return { toolCalls: [start("BG", true)] };
    const notes = notificationsIn(request.messages);
    if (rootTurn === 2) return { text: "waiting" };
    if (rootTurn === 3) {
      const id = /<task-id>([^<]+)</.exec(notes[0]!)?.[1];
      return { toolCalls: [{ name: "task_send", args: { task_id: id, message: "MORE" } }] };
    }
    if (rootTurn === 4) return { text: "waiting again" };
    return { text: `notes: ${notes.length}` };
  });
  const { config } = rootTree({ workspace, model });

  const run = await runTree(config, "ROOT");
  expect(toolResultsIn(run.session.messages)[1]?.content).toMatch(
    /^Subagent general-purpose continued in the background/,
  );
  const notes = notificationsIn(run.session.messages);
  expect(notes).toHaveLength(2);
  expect(notes[1]).toContain("reply to MORE");
  expect(run.outcome.text).toBe("notes: 2");
});
