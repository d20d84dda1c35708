import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { expect, test } from "vitest";
import type { ModelRequest } from "../../src/model/model.ts";
import { type ScriptedReply, scriptedModel } from "../../src/testing/index.ts";
import { waitFor } from "../support/processes.ts";
import { gate } from "./support/gate.ts";
import { notificationsIn, taskIdIn, taskIdOf } from "./support/notifications.ts";
import {
  firstUserText,
  registryWith,
  rootTree,
  runTree,
  tempWorkspace,
  toolResultsIn,
} from "./support/subagent-harness.ts";

const background = (prompt: string) => ({
  name: "task",
  args: { description: `Work on ${prompt}`, prompt, subagent_type: "explore", run_in_background: true },
});

test("two background children: the parent keeps working and gets each completion exactly once", async () => {
  const ws = await tempWorkspace();
  await writeFile(join(ws, "a.txt"), "alpha\n");
  let parentTurn = 0;
  const slowGate = gate();
  const model = scriptedModel(async (request: ModelRequest): Promise<ScriptedReply> => {
    const prompt = firstUserText(request.messages);
    if (prompt === "FAST") return { text: "fast result" };
    if (prompt === "SLOW") {
      await slowGate.opened;
      return { text: "slow result" };
    }
    parentTurn++;
    if (parentTurn === 1) return { toolCalls: [background("FAST"), background("SLOW")] };
    if (parentTurn === 2) {
      // The parent goes on with its own work while both run; FAST finishes meanwhile.
      await waitFor(
        async () => (await runtime.store.list({ status: "COMPLETED" })).length === 1,
        10_000,
        "FAST to complete",
      );
      return { toolCalls: [{ name: "read", args: { path: "a.txt" } }] };
    }
    if (parentTurn === 3) return { text: "my own part is done" };
    return { text: `final: ${notificationsIn(request.messages).length} notifications` };
  });
  const { config, runtime } = rootTree({ workspace: ws, model });

  // SLOW may finish once the parent ended its own turn, not before, however slow the machine.
  const run = await runTree(config, "ROOT", {
    onEvent: (event) => {
      if (event.type === "turn_end" && event.agentPath.length === 1 && event.turn === 3) slowGate.open();
    },
  });
  const parentRequests = model.requests.filter((r) => firstUserText(r.messages) === "ROOT");
  expect(parentRequests).toHaveLength(4);
  // The task calls returned at once with the ids.
  const [fast, slow] = toolResultsIn(parentRequests[1]!.messages);
  expect(fast?.content).toMatch(/^Subagent explore started in the background as task_id sub-/);
  const fastId = taskIdIn(fast!.content);
  const slowId = taskIdIn(slow!.content);
  // FAST finished while the parent read a file: delivered before its next call. SLOW was still running
  // when the parent ended its turn, so the run waited and gave it another turn.
  expect(parentRequests.map((r) => notificationsIn(r.messages).map(taskIdOf))).toEqual([
    [],
    [],
    [fastId],
    [fastId, slowId],
  ]);
  const notes = notificationsIn(run.session.messages);
  expect(notes).toHaveLength(2);
  expect(notes[0]).toContain("<result>\nfast result\n</result>");
  expect(notes[1]).toContain("<status>completed</status>");
  expect(notes[1]).toContain("<result>\nslow result\n</result>");
  expect(run.outcome).toMatchObject({ status: "completed", text: "final: 2 notifications" });

  // The run ended only after both children had.
  const ends = run.of("agent_end").map((event) => event.agentPath.join("/"));
  expect(ends.at(-1)).toBe("main");
  expect(ends).toHaveLength(3);
  for (const id of [fastId!, slowId!]) {
    expect(await runtime.store.get(id)).toMatchObject({
      status: "COMPLETED",
      background: true,
      deliveredAt: expect.any(String),
    });
  }
  expect(runtime.hasRunningChildren(run.session.id)).toBe(false);
});

test("a sync child's result is its tool result, never a notification; every child gets a record", async () => {
  const workspace = await tempWorkspace();
  const model = scriptedModel((request: ModelRequest): ScriptedReply => {
    if (firstUserText(request.messages) !== "ROOT") return { text: "sync result" };
    return toolResultsIn(request.messages).length === 0
      ? { toolCalls: [{ name: "task", args: { description: "Quick look", prompt: "LOOK" } }] }
      : { text: `done, ${notificationsIn(request.messages).length} notifications` };
  });
  const { config, runtime } = rootTree({ workspace, model });

  const run = await runTree(config, "ROOT");
  expect(run.outcome.text).toBe("done, 0 notifications");
  const [record] = await runtime.store.list({ parentSessionId: run.session.id });
  expect(record).toMatchObject({
    agentType: "general-purpose",
    parentAgentId: "main",
    description: "Quick look",
    status: "COMPLETED",
    background: false,
    result: "sync result",
    model: "scripted:model",
    agentPath: ["main", "general-purpose-1"],
    deliveredAt: expect.any(String),
    usage: { input: 10, output: 10, cacheRead: 0, cacheWrite: 0 },
  });
});

test("a definition with background: true runs in the background unless the call says otherwise", async () => {
  const workspace = await tempWorkspace();
  const registry = registryWith({
    name: "watcher",
    description: "Watches.",
    prompt: "You watch.",
    background: true,
  });
  const model = scriptedModel((request: ModelRequest): ScriptedReply => {
    if (request.system.includes("You watch.")) return { text: "watched" };
    const results = toolResultsIn(request.messages);
    if (results.length === 0)
      return {
        toolCalls: [
          { name: "task", args: { description: "Watch it", prompt: "W1", subagent_type: "watcher" } },
          {
            name: "task",
            args: {
              description: "Watch now",
              prompt: "W2",
              subagent_type: "watcher",
              run_in_background: false,
            },
          },
        ],
      };
    return { text: "done" };
  });
  const { config } = rootTree({ workspace, model, registry });

  const run = await runTree(config, "ROOT");
  const [first, second] = toolResultsIn(run.session.messages);
  expect(first?.content).toMatch(/started in the background as task_id/);
  expect(second?.content).toMatch(
    /^<task_result task_id="sub-[^"]+" agent="watcher" status="completed">\nwatched/,
  );
  expect(notificationsIn(run.session.messages).map(taskIdOf)).toEqual([taskIdIn(first!.content)]);
});
