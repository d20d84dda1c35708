import { expect, it } from "vitest";
import { watchTreeBudget } from "../../../src/agent/limits/tree-budget.ts";

it("counts a compaction's summary call against the tree's token budget", () => {
  const controller = new AbortController();
  const watch = watchTreeBudget({ maxTokens: 1_000 }, controller);
  watch.observe({
    type: "compacted",
    trigger: "auto",
    tokensBefore: 5_000,
    tokensAfter: 900,
    contextWindow: 6_000,
    replacedMessages: 9,
    keptMessages: 2,
    summary: "…",
    model: "m",
    usage: { input: 1_400, output: 100, cacheRead: 0, cacheWrite: 0 },
    durationMs: 10,
    agentPath: ["main", "explore-1"],
  });
  watch.dispose();
  expect(watch.usage.input).toBe(1_400);
  expect(controller.signal.aborted).toBe(true);
  expect(String(controller.signal.reason)).toContain("token budget of the run exceeded: 1500 tokens");
});
