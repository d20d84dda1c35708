import { setTimeout as sleep } from "node:timers/promises";
import { expect, test } from "vitest";
import type { ModelRequest } from "../../src/model/model.ts";
import { ModelLimiters } from "../../src/model/model-limiters.ts";
import { withLimiter } from "../../src/model/with-limiter.ts";
import { type ScriptedReply, scriptedModel } from "../../src/testing/index.ts";
import { scaled } from "../support/time-scale.ts";
import {
  firstUserText,
  rootTree,
  runTree,
  tempWorkspace,
  toolResultsIn,
} from "./support/subagent-harness.ts";

const spawnAll = (prompts: string[]): ScriptedReply => ({
  toolCalls: prompts.map((prompt) => ({
    name: "task",
    args: { description: `Do ${prompt}`, prompt, subagent_type: "general-purpose" },
  })),
});

/**
 * A model shared by a whole tree that counts the calls it answers at once. `plan` maps a prompt to the
 * prompts of the children it starts; every reply takes `ms`. The tests scale `ms` with the limits they
 * set, so a loaded machine keeps the proportions that decide them.
 */
function treeModel(plan: Record<string, string[]>, ms: number) {
  const counts = { now: 0, peak: 0 };
  const model = scriptedModel(async (request: ModelRequest) => {
    counts.now++;
    counts.peak = Math.max(counts.peak, counts.now);
    await sleep(ms);
    counts.now--;
    const prompt = firstUserText(request.messages);
    const results = toolResultsIn(request.messages);
    const children = plan[prompt];
    if (children === undefined || results.length > 0) return { text: `${prompt} done` };
    return spawnAll(children);
  });
  return { model, counts };
}

test("one limiter holds the calls of the whole tree: root, children and grandchildren wait in one line", async () => {
  const workspace = await tempWorkspace();
  const { model, counts } = treeModel(
    { ROOT: ["A", "B", "C"], A: ["A1", "A2"], B: ["B1", "B2"], C: ["C1", "C2"] },
    scaled(80),
  );
  const limiters = new ModelLimiters({ min: 1, max: 1, initial: 1 });
  const limited = () => withLimiter(model, limiters.for("test endpoint"));
  const { config, runtime } = rootTree({
    workspace,
    model: limited(),
    createModel: limited,
    // Waiting in line (up to ~0.5 s here) takes longer than this; it must not count as a stall.
    limits: { maxDepth: 2, stallTimeoutMs: scaled(300) },
  });

  const run = await runTree(config, "ROOT");
  expect(run.outcome).toMatchObject({ status: "completed", text: "ROOT done" });
  expect(run.of("agent_end").map((event) => event.outcome.status)).toEqual(Array(10).fill("completed"));
  expect(model.requests).toHaveLength(2 + 3 * 2 + 6);
  expect(counts.peak).toBe(1);
  // Children and grandchildren waited, each under its own path, told the limit.
  const waits = run.of("capacity_wait");
  expect(new Set(waits.map((event) => event.agentPath.length))).toEqual(new Set([2, 3]));
  expect(waits.every((event) => event.limit === 1)).toBe(true);
  expect(run.of("capacity_granted").length).toBeGreaterThanOrEqual(
    new Set(waits.map((e) => e.agentPath.join("/"))).size,
  );
  expect(limiters.for("test endpoint").state).toEqual({ limit: 1, inFlight: 0, waiting: 0 });
  await runtime.shutdown();
});

test("a child's wait for capacity does not use its wall-clock budget", async () => {
  const workspace = await tempWorkspace();
  const { model, counts } = treeModel({ ROOT: ["A", "B", "C", "D", "E", "F"] }, scaled(150));
  const limiters = new ModelLimiters({ min: 1, max: 1, initial: 1 });
  const limited = () => withLimiter(model, limiters.for("test endpoint"));
  const { config, runtime } = rootTree({
    workspace,
    model: limited(),
    createModel: limited,
    // Each child's own call takes 150 ms; the last ones wait up to ~750 ms for those before them.
    limits: { maxDurationMs: scaled(300) },
  });

  const run = await runTree(config, "ROOT");
  expect(run.outcome.status).toBe("completed");
  const children = run.of("agent_end").filter((event) => event.agentPath.length === 2);
  expect(children.map((event) => event.outcome.status)).toEqual(Array(6).fill("completed"));
  expect(counts.peak).toBe(1);
  const longest = Math.max(...run.of("capacity_granted").map((event) => event.waitedMs));
  expect(longest).toBeGreaterThan(scaled(300));
  await runtime.shutdown();
});
