import { expect, test } from "vitest";
import type { ModelRequest } from "../../src/model/model.ts";
import { type ScriptedReply, scriptedModel } from "../../src/testing/index.ts";
import { gate } from "./support/gate.ts";
import { notificationsIn, taskIdIn } from "./support/notifications.ts";
import {
  firstUserText,
  rootTree,
  runTree,
  tempWorkspace,
  toolResultsIn,
} from "./support/subagent-harness.ts";

const background = (prompt: string) => ({
  name: "task",
  args: { description: `Do ${prompt}`, prompt, run_in_background: true },
});

/** Children answer `<prompt> done` after a delay named in their prompt (`A:300` waits 300 ms). */
function childReply(request: ModelRequest): ScriptedReply {
  const prompt = firstUserText(request.messages);
  return { text: `${prompt} done`, delayMs: Number(prompt.split(":")[1] ?? 0) };
}

test("task_wait mode all returns both results, and they are not notified again", async () => {
  const workspace = await tempWorkspace();
  const model = scriptedModel((request: ModelRequest): ScriptedReply => {
    if (firstUserText(request.messages) !== "ROOT") return childReply(request);
    const results = toolResultsIn(request.messages);
    if (results.length === 0) return { toolCalls: [background("A:100"), background("B:400")] };
    if (results.length === 2) {
      const ids = results.map((r) => taskIdIn(r.content));
      return { toolCalls: [{ name: "task_wait", args: { task_ids: ids, mode: "all", timeout_s: 20 } }] };
    }
    return { text: `notifications: ${notificationsIn(request.messages).length}` };
  });
  const { config } = rootTree({ workspace, model });

  const run = await runTree(config, "ROOT");
  const waited = toolResultsIn(run.session.messages)[2]!;
  expect(waited.isError).toBe(false);
  expect(waited.content.split("\n")[0]).toBe("2 of 2 finished.");
  expect(waited.content).toContain('agent="general-purpose" status="COMPLETED">');
  expect(waited.content).toContain("result:\nA:100 done");
  expect(waited.content).toContain("result:\nB:400 done");
  // The results came through task_wait; nothing is delivered a second time.
  expect(run.outcome.text).toBe("notifications: 0");
});

test("task_wait mode any returns when the first finishes; the other is still running", async () => {
  const workspace = await tempWorkspace();
  const b = gate();
  const model = scriptedModel(async (request: ModelRequest): Promise<ScriptedReply> => {
    if (firstUserText(request.messages) === "B:0") await b.opened;
    if (firstUserText(request.messages) !== "ROOT") return childReply(request);
    const results = toolResultsIn(request.messages);
    if (results.length === 0) return { toolCalls: [background("A:50"), background("B:0")] };
    if (results.length === 2) return { toolCalls: [{ name: "task_wait", args: { mode: "any" } }] };
    b.open();
    return { text: "ok" };
  });
  const { config } = rootTree({ workspace, model });

  const run = await runTree(config, "ROOT");
  const waited = toolResultsIn(run.session.messages)[2]!.content;
  expect(waited.split("\n")[0]).toBe("1 of 2 finished.");
  expect(waited).toContain("result:\nA:50 done");
  expect(waited).toMatch(/status="RUNNING">\ndescription: Do B:0\nprogress: elapsed [\d.]+(ms|s) · turns 1/);
  // B's result arrives as a notification when the parent ends its turn.
  const notes = notificationsIn(run.session.messages);
  expect(notes).toHaveLength(1);
  expect(notes[0]).toContain("B:0 done");
});

test("task_wait clamps its timeout to at least 1 s and reports what is still running", async () => {
  const workspace = await tempWorkspace();
  const model = scriptedModel((request: ModelRequest): ScriptedReply => {
    if (firstUserText(request.messages) !== "ROOT") return childReply(request);
    const results = toolResultsIn(request.messages);
    if (results.length === 0) return { toolCalls: [background("SLOW:1800")] };
    if (results.length === 1) return { toolCalls: [{ name: "task_wait", args: { timeout_s: 0 } }] };
    return { text: "ok" };
  });
  const { config } = rootTree({ workspace, model });

  const started = Date.now();
  const run = await runTree(config, "ROOT");
  const waited = toolResultsIn(run.session.messages)[1]!.content;
  expect(waited.split("\n")[0]).toBe(
    "0 of 1 finished (stopped waiting after 1.0s; the others keep running).",
  );
  expect(Date.now() - started).toBeGreaterThanOrEqual(1_000);
});

test("task_wait refuses task_ids that are not the caller's, and says when there is nothing to wait for", async () => {
  const workspace = await tempWorkspace();
  const model = scriptedModel((request: ModelRequest): ScriptedReply => {
    const results = toolResultsIn(request.messages);
    if (results.length === 0)
      return {
        toolCalls: [
          { name: "task_wait", args: {} },
          { name: "task_wait", args: { task_ids: ["sub-nope"] } },
          { name: "task_output", args: { task_id: "../etc" } },
        ],
      };
    return { text: "ok" };
  });
  const { config } = rootTree({ workspace, model });

  const run = await runTree(config, "ROOT");
  const [nothing, unknown, invalid] = toolResultsIn(run.session.messages);
  expect(nothing?.content).toBe(
    "Nothing to wait for: none of your subagents is running and every result has been delivered to you.",
  );
  expect(unknown).toMatchObject({ isError: true });
  expect(unknown?.content).toBe(
    'Unknown task_id "sub-nope": no subagent with that id exists. You have started no subagents yet.',
  );
  expect(invalid?.isError).toBe(true);
  expect(invalid?.content).toContain('Cannot read task_id "../etc": Invalid taskId');
});
