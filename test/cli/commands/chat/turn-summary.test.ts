import { describe, expect, it } from "vitest";
import { turnSummary } from "../../../../src/cli/commands/chat/turn-summary.ts";
import { runResult } from "../../../../src/cli/render/result-object.ts";
import { createStyle } from "../../../../src/cli/render/style.ts";
import { TreeUsage } from "../../../../src/cli/render/tree-usage.ts";
import type { Outcome } from "../../../../src/contracts/outcome.ts";

const plain = createStyle(false);
const base = {
  text: "",
  turns: 2,
  usage: { input: 1000, output: 200, cacheRead: 500, cacheWrite: 0 },
  durationMs: 3400,
  sessionId: "s1",
};

describe("the line after an interactive turn", () => {
  it("shows turns, input tokens with cache, output tokens and time for a completed turn", () => {
    const outcome: Outcome = { ...base, status: "completed" };
    expect(turnSummary(runResult(outcome), plain)).toBe("2 turns · 1.5k tokens in / 200 out · 3.4s");
  });

  it("counts the whole tree and its cost when children ran", () => {
    const tree = new TreeUsage();
    const end = (path: string[], usage: Outcome["usage"]) =>
      tree.add({ type: "agent_end", agentPath: path, outcome: { ...base, usage, status: "completed" } });
    end(["main", "explore-1"], { input: 3000, output: 100, cacheRead: 0, cacheWrite: 0, cost: 0.01 });
    end(["main"], { input: 1000, output: 200, cacheRead: 0, cacheWrite: 0, cost: 0.02 });
    const outcome: Outcome = { ...base, turns: 1, status: "completed" };
    expect(turnSummary(runResult(outcome, tree), plain)).toBe(
      "1 turn · 4.0k tokens in / 300 out · 2 agent runs · $0.0300 · 3.4s",
    );
  });

  it("leads with how the turn ended when it did not complete", () => {
    const summary = (outcome: Outcome) => turnSummary(runResult(outcome), plain).split(" · ")[0];
    expect(summary({ ...base, status: "aborted", reason: "interrupted (Ctrl-C)" })).toBe("aborted");
    expect(summary({ ...base, status: "error", error: "HTTP 500\nserver exploded" })).toBe(
      "error: HTTP 500 ⏎ server exploded",
    );
    expect(summary({ ...base, status: "max_turns" })).toContain("turn limit");
    expect(summary({ ...base, status: "budget_exceeded", reason: "token budget of 1000 exceeded" })).toBe(
      "stopped: token budget of 1000 exceeded",
    );
  });
});
