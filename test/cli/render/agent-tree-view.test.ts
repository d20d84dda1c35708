import { describe, expect, it } from "vitest";
import {
  formatCost,
  formatTokens,
  renderAgentTree,
  shortModel,
} from "../../../src/cli/render/agent-tree-view.ts";
import { buildAgentTree } from "../../../src/tree/agent-tree-state.ts";
import { end, progress, start, timed, toolStart, turn, usage } from "./support/tree-events.ts";

const ANSI = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, "g");
const visible = (line: string) => [...line.replace(ANSI, "")].length;

/** main with three children: one reading, one done, one failed, one queued; a grandchild running. */
const state = buildAgentTree(
  timed(
    [
      start("main", "main", "anthropic:claude-sonnet-4-5"),
      ...turn("main", 1, usage(1_200, 80, 0.0123)),
      toolStart("main", "t1", "task", { description: "map the source layout" }),
      toolStart("main", "t2", "task", { description: "find the tests" }),
      toolStart("main", "t3", "task", { description: "fix the bug" }),
      toolStart("main", "t4", "task", { description: "write the docs", subagent_type: "general-purpose" }),
      progress(
        "main",
        "t4",
        "queued main/general-purpose-1: 3 subagents running (limit 3), 0 already waiting",
      ),
      start("main/explore-1", "explore", "anthropic:claude-haiku-4-5", "map the source layout"),
      start("main/explore-2", "explore", "anthropic:claude-haiku-4-5", "find the tests"),
      start("main/plan-1", "plan", "openai:gpt-5", "fix the bug"),
      ...turn("main/explore-1", 1, usage(2_000, 100)),
      ...turn("main/explore-1", 2, usage(2_900, 150)),
      ...turn("main/explore-1", 3, usage(40, 10)),
      toolStart("main/explore-1", "r1", "read", { path: "src/a.ts" }),
      ...turn("main/explore-2", 1, usage(800, 40)),
      ...turn("main/plan-1", 1, usage(300, 10)),
      toolStart("main/plan-1", "t5", "task", { description: "dig", subagent_type: "explore" }),
      start("main/plan-1/explore-3", "explore", "anthropic:claude-haiku-4-5", "dig"),
      end("main/explore-2", "error", { error: "provider returned 529: overloaded" }),
    ],
    0,
    100,
  ),
);

describe("agent tree view", () => {
  it("draws one aligned line per agent, nested with box-drawing branches, then the totals", () => {
    const lines = renderAgentTree(state, { now: 5_000, width: 160 });
    expect(lines).toEqual([
      "main                  main             claude-sonnet-4-5  ● task write the docs +3                        t1  1.3k tok  5.0s",
      "├─ explore-1          explore          claude-haiku-4-5   ● read src/a.ts                                 t3  5.2k tok  4.1s",
      "├─ explore-2          explore          claude-haiku-4-5   ✗ failed: provider returned 529: overloaded      t1  840 tok  2.0s",
      "├─ plan-1             plan             gpt-5              ● task dig                                       t1  310 tok  3.9s",
      "│  └─ explore-3       explore          claude-haiku-4-5   ● thinking                                         t0  0 tok  2.1s",
      "└─ general-purpose-1  general-purpose                     ◌ queued: write the docs                                      4.2s",
      "6 agents (4 running, 1 queued, 1 failed) · 7.2k tokens in / 390 out · $0.0123",
    ]);
  });

  it("cuts every line to the width, keeping the numbers and shortening the activity first", () => {
    for (const width of [20, 40, 60, 80, 100]) {
      const lines = renderAgentTree(state, { now: 5_000, width });
      for (const line of lines) expect(visible(line), `${width}: ${line}`).toBeLessThanOrEqual(width);
    }
    const narrow = renderAgentTree(state, { now: 5_000, width: 90 });
    expect(narrow[1]).toMatch(/ {3}● read src\/… {2}t3 {2}5\.2k tok {2}4\.1s$/);
    expect(narrow[2]).toMatch(/ {3}✗ failed: p… {3}t1 {2}840 tok {2}2\.0s$/);
  });

  it("colours only when asked, without changing the visible text", () => {
    const plain = renderAgentTree(state, { now: 5_000, width: 100 });
    const coloured = renderAgentTree(state, { now: 5_000, width: 100, color: true });
    expect(plain.join("\n")).not.toMatch(ANSI);
    expect(coloured.join("\n")).toMatch(ANSI);
    expect(coloured.map((line) => line.replace(ANSI, ""))).toEqual(plain);
  });

  it("keeps to maxLines, summarising the agents left out", () => {
    const lines = renderAgentTree(state, { now: 5_000, width: 120, maxLines: 4 });
    expect(lines).toHaveLength(4);
    expect(lines[2]).toBe("… 4 more agents");
    expect(lines[3]).toMatch(/^6 agents/);
  });

  it("formats token counts, costs and model ids compactly", () => {
    expect([950, 2_100, 12_345, 3_400_000].map(formatTokens)).toEqual(["950", "2.1k", "12k", "3.4M"]);
    expect([0.0123, 2.5].map(formatCost)).toEqual(["$0.0123", "$2.50"]);
    expect(shortModel("anthropic:claude-haiku-4-5")).toBe("claude-haiku-4-5");
    expect(shortModel("openai-compatible:local:very-long-model-name-here")).toBe("local:very-long-model-n…");
    expect(shortModel(undefined)).toBe("");
  });

  it("shows a child's running tool with its last progress note (an MCP server's)", () => {
    const note = (name: string, update: string) => ({ ...progress("main/explore-1", name, update), name });
    const tree = buildAgentTree(
      timed([
        start("main", "main", "anthropic:claude-sonnet-4-5"),
        toolStart("main", "t1", "task", { description: "look" }),
        start("main/explore-1", "explore", "anthropic:claude-haiku-4-5", "look"),
        toolStart("main/explore-1", "mcp__s__op", "mcp__s__op", {}),
        note("mcp__s__op", "1/4 (25%)"),
        note("mcp__s__op", "2/4 (50%) indexing"),
      ]),
    );
    const lines = renderAgentTree(tree, { now: 10_000, width: 200, color: false });
    expect(lines.find((line) => line.includes("explore-1"))).toContain("mcp__s__op {} (2/4 (50%) indexing)");
  });
});
