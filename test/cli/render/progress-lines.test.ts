import { describe, expect, it } from "vitest";
import { progressLine, progressSummary } from "../../../src/cli/render/progress-lines.ts";
import type { AgentEvent } from "../../../src/contracts/events.ts";
import { emptyAgentTree, reduceAgentTree } from "../../../src/tree/agent-tree-state.ts";
import { end, progress, start, toolEnd, toolStart, turn, usage } from "./support/tree-events.ts";

/** Folds the events 100 ms apart and collects the progress line each one produced. */
function linesOf(events: AgentEvent[]) {
  let state = emptyAgentTree;
  const lines: string[] = [];
  events.forEach((event, index) => {
    state = reduceAgentTree(state, event, index * 100);
    const line = progressLine(event, state);
    if (line !== undefined) lines.push(line);
  });
  return { lines, state };
}

describe("progress lines", () => {
  it("prints one line when a child starts and one when it finishes, with its metrics", () => {
    const { lines } = linesOf([
      start("main", "main", "anthropic:claude-sonnet-4-5"),
      ...turn("main", 1, usage(500, 20)),
      toolStart("main", "t1", "task", { description: "map the source layout" }),
      start("main/explore-1", "explore", "anthropic:claude-haiku-4-5", "map the source layout"),
      ...turn("main/explore-1", 1, usage(1_000, 50)),
      toolStart("main/explore-1", "r1", "read", { path: "src/a.ts" }),
      toolEnd("main/explore-1", "r1", "read"),
      ...turn("main/explore-1", 2, usage(1_000, 50)),
      end("main/explore-1", "completed", { turns: 2 }),
      toolEnd("main", "t1", "task"),
      end("main", "completed"),
    ]);
    expect(lines).toEqual([
      "[main/explore-1] started explore (claude-haiku-4-5): map the source layout",
      "[main/explore-1] completed in 900ms, 2 turns, 2.1k tokens",
    ]);
  });

  it("says why a child failed or was aborted, and when one waits for a slot", () => {
    const { lines } = linesOf([
      start("main", "main", "m"),
      toolStart("main", "t1", "task", { description: "fix\nthe bug", subagent_type: "general-purpose" }),
      progress(
        "main",
        "t1",
        "queued main/general-purpose-1: 8 subagents running (limit 8), 0 already waiting",
      ),
      start("main/general-purpose-1", "general-purpose", "p:m", "fix\nthe bug"),
      ...turn("main/general-purpose-1", 1, usage(100, 5)),
      end("main/general-purpose-1", "error", { error: "provider returned 500\nstack…" }),
      start("main/explore-1", "explore", "p:m"),
      end("main/explore-1", "aborted", { reason: "interrupted (SIGINT)", turns: 0 }),
    ]);
    expect(lines).toEqual([
      "[main/general-purpose-1] queued general-purpose: fix ⏎ the bug (8 subagents running (limit 8), 0 already waiting)",
      "[main/general-purpose-1] started general-purpose (m): fix ⏎ the bug",
      "[main/general-purpose-1] failed after 400ms, 1 turn, 105 tokens: provider returned 500",
      "[main/explore-1] started explore (m)",
      "[main/explore-1] aborted after 100ms, 0 turns, 0 tokens: interrupted (SIGINT)",
    ]);
  });

  it("prints nothing for the root agent or for tool activity", () => {
    const { lines } = linesOf([
      start("main", "main", "m"),
      toolStart("main", "b1", "bash", { command: "npm test" }),
      progress("main", "b1", "3 passed"),
      toolEnd("main", "b1", "bash"),
      end("main", "completed"),
    ]);
    expect(lines).toEqual([]);
  });

  it("closes a run that had children with the totals of the whole tree, and stays quiet otherwise", () => {
    const { state } = linesOf([
      start("main", "main", "m"),
      ...turn("main", 1, usage(1_000, 100, 0.01)),
      start("main/explore-1", "explore", "m"),
      ...turn("main/explore-1", 1, usage(4_000, 200, 0.002)),
      end("main/explore-1", "completed"),
    ]);
    expect(progressSummary(state)).toBe(
      "[total] 2 agents (1 running, 1 done) · 5.0k tokens in / 300 out · $0.0120",
    );
    const alone = linesOf([start("main", "main", "m"), end("main", "completed")]).state;
    expect(progressSummary(alone)).toBeUndefined();
  });
});
