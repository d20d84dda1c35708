import { describe, expect, it } from "vitest";
import type { AgentEvent } from "../../src/contracts/events.ts";
import {
  type AgentTreeState,
  buildAgentTree,
  emptyAgentTree,
  findNode,
  reduceAgentTree,
} from "../../src/tree/agent-tree-state.ts";
import { hasActiveChildren, treeTotals } from "../../src/tree/agent-tree-totals.ts";
import {
  end,
  progress,
  start,
  timed,
  toolEnd,
  toolStart,
  turn,
  usage,
} from "../cli/render/support/tree-events.ts";

const node = (state: AgentTreeState, path: string) => {
  const found = findNode(state, path.split("/"));
  if (found === undefined) throw new Error(`no node ${path}`);
  return found;
};

/**
 * A root that starts three children with a concurrency limit of two: explore-1 completes, explore-2
 * fails, general-purpose-1 waits in the queue, then starts a grandchild and is aborted.
 */
const run: AgentEvent[] = [
  start("main", "main", "anthropic:claude-sonnet-4-5"),
  { type: "turn_start", agentPath: ["main"], turn: 1 },
  turn("main", 1, usage(1_000, 50, 0.02))[1] as AgentEvent,
  toolStart("main", "t1", "task", { description: "map the source layout", subagent_type: "explore" }),
  toolStart("main", "t2", "task", { description: "find the tests", subagent_type: "explore" }),
  toolStart("main", "t3", "task", { description: "fix the bug", subagent_type: "general-purpose" }),
  progress("main", "t3", "queued main/general-purpose-1: 2 subagents running (limit 2), 0 already waiting"),
  start("main/explore-1", "explore", "anthropic:claude-haiku-4-5", "map the source layout"),
  start("main/explore-2", "explore", "anthropic:claude-haiku-4-5", "find the tests"),
  ...turn("main/explore-1", 1, usage(2_000, 100)),
  toolStart("main/explore-1", "r1", "read", { path: "src/a.ts" }),
  toolStart("main/explore-1", "g1", "grep", { pattern: "TODO", path: "src" }),
  toolEnd("main/explore-1", "g1", "grep"),
  toolEnd("main/explore-1", "r1", "read"),
  ...turn("main/explore-2", 1, usage(500, 20, 0.01)),
  end("main/explore-2", "error", { error: "provider returned 500\nretries exhausted" }),
  toolEnd("main", "t2", "task", true, "Subagent explore (task_id sub-2) did not complete"),
  ...turn("main/explore-1", 2, usage(3_000, 200)),
  end("main/explore-1", "completed", { turns: 2 }),
  toolEnd("main", "t1", "task"),
  progress("main", "t3", "started main/general-purpose-1"),
  start("main/general-purpose-1", "general-purpose", "anthropic:claude-sonnet-4-5", "fix the bug"),
  { type: "turn_start", agentPath: ["main", "general-purpose-1"], turn: 1 },
  toolStart("main/general-purpose-1", "t4", "task", { description: "look deeper", subagent_type: "explore" }),
  start("main/general-purpose-1/explore-3", "explore", "anthropic:claude-haiku-4-5", "look deeper"),
  ...turn("main/general-purpose-1/explore-3", 1, usage(100, 10)),
  end("main/general-purpose-1/explore-3", "completed"),
  toolEnd("main/general-purpose-1", "t4", "task"),
  // The run is interrupted: the child's turn ends without a reply, so turn_end carries its usage.
  { type: "turn_end", agentPath: ["main", "general-purpose-1"], turn: 1, usage: usage(700, 0) },
  end("main/general-purpose-1", "aborted", { reason: "interrupted (SIGINT)" }),
  toolEnd("main", "t3", "task", true, "aborted"),
  { type: "turn_end", agentPath: ["main"], turn: 1, usage: usage(1_000, 50, 0.02) },
  end("main", "aborted", { reason: "interrupted (SIGINT)" }),
];

/** The tree after the first `count` events (each 100 ms after the previous, from t=1000). */
const treeAfter = (count: number) => buildAgentTree(timed(run.slice(0, count)));
/** How many events up to and including the first that matches. */
const through = (predicate: (event: AgentEvent) => boolean) => run.findIndex(predicate) + 1;
const isToolStart = (id: string) => (e: AgentEvent) => e.type === "tool_start" && e.toolCallId === id;
const isToolEnd = (id: string) => (e: AgentEvent) => e.type === "tool_end" && e.toolCallId === id;
const isEnd = (path: string) => (e: AgentEvent) => e.type === "agent_end" && e.agentPath.join("/") === path;
const isStart = (path: string) => (e: AgentEvent) =>
  e.type === "agent_start" && e.agentPath.join("/") === path;
/** The timestamp `timed` gives the first event that matches. */
const stamp = (predicate: (event: AgentEvent) => boolean) => 1_000 + run.findIndex(predicate) * 100;

describe("agent tree state", () => {
  it("shows a child that waits for a slot as queued, with the type and description of its task call", () => {
    const state = treeAfter(through((e) => e.type === "tool_progress"));
    const queued = node(state, "main/general-purpose-1");
    expect(queued).toMatchObject({
      status: "queued",
      agentType: "general-purpose",
      description: "fix the bug",
    });
    expect(queued.queuedAt).toBe(stamp((e) => e.type === "tool_progress"));
    expect(queued.model).toBeUndefined();
    expect(hasActiveChildren(state)).toBe(true);
  });

  it("tracks a running child's current tools, turns and tokens", () => {
    const state = treeAfter(through(isToolStart("g1")));
    const child = node(state, "main/explore-1");
    expect(child).toMatchObject({
      status: "running",
      agentType: "explore",
      model: "anthropic:claude-haiku-4-5",
      description: "map the source layout",
      turns: 1,
      tokensIn: 2_000,
      tokensOut: 100,
      startedAt: stamp(isStart("main/explore-1")),
    });
    expect(child.tools.map((t) => `${t.name} ${t.arg}`)).toEqual(["read src/a.ts", "grep TODO in src"]);
    const later = treeAfter(through(isToolEnd("r1")));
    expect(node(later, "main/explore-1").tools).toEqual([]);
    expect(node(later, "main/explore-1").lastTool?.name).toBe("grep");
  });

  it("counts a turn's usage once, when its reply arrives", () => {
    const state = treeAfter(through(isToolStart("t1")));
    // The root is still waiting for its tools, but its call already shows.
    expect(node(state, "main")).toMatchObject({ tokensIn: 1_000, tokensOut: 50, cost: 0.02, turns: 1 });
    expect(node(buildAgentTree(timed(run)), "main")).toMatchObject({ tokensIn: 1_000, tokensOut: 50 });
  });

  it("records how each child ended, with the first line of the reason", () => {
    const state = buildAgentTree(timed(run));
    expect(node(state, "main/explore-1")).toMatchObject({
      status: "completed",
      turns: 2,
      startedAt: stamp(isStart("main/explore-1")),
      endedAt: stamp(isEnd("main/explore-1")),
    });
    expect(node(state, "main/explore-2")).toMatchObject({ status: "failed", error: "provider returned 500" });
    expect(node(state, "main/general-purpose-1")).toMatchObject({
      status: "aborted",
      error: "interrupted (SIGINT)",
      tokensIn: 700,
    });
    expect(node(state, "main").status).toBe("aborted");
    expect(state.tasks).toEqual([]);
    expect(hasActiveChildren(state)).toBe(false);
  });

  it("nests a grandchild under its parent", () => {
    const state = buildAgentTree(timed(run));
    expect(state.nodes.map((n) => n.key)).toEqual([
      "main",
      "main/general-purpose-1",
      "main/explore-1",
      "main/explore-2",
      "main/general-purpose-1/explore-3",
    ]);
    expect(node(state, "main/general-purpose-1/explore-3")).toMatchObject({ status: "completed", turns: 1 });
  });

  it("sums tokens, cost and statuses over the whole tree", () => {
    const totals = treeTotals(buildAgentTree(timed(run)));
    expect(totals).toEqual({
      agents: 5,
      children: 4,
      queued: 0,
      running: 0,
      completed: 2,
      failed: 1,
      aborted: 2,
      tokensIn: 1_000 + 2_000 + 3_000 + 500 + 100 + 700,
      tokensOut: 50 + 100 + 200 + 20 + 10,
      cost: 0.03,
      waitingForModel: 0,
    });
  });

  it("marks a queued child that never started as failed when its task call ends in an error", () => {
    let state = emptyAgentTree;
    const events = [
      start("main", "main", "m"),
      toolStart("main", "t9", "task", { description: "extra work", subagent_type: "explore" }),
      progress("main", "t9", "queued main/explore-9: 8 subagents running (limit 8), 3 already waiting"),
      toolEnd("main", "t9", "task", true, "Subagent main/explore-9 was not started: the run was aborted"),
    ];
    for (const [index, event] of events.entries()) state = reduceAgentTree(state, event, index * 10);
    expect(node(state, "main/explore-9")).toMatchObject({
      status: "failed",
      error: "Subagent main/explore-9 was not started: the run was aborted",
      endedAt: 30,
    });
  });

  it("creates the missing ancestors of an agent first seen mid-run", () => {
    const state = reduceAgentTree(emptyAgentTree, turn("main/plan-1/explore-2", 3, usage(1, 1))[0]!, 50);
    expect(state.nodes.map((n) => [n.key, n.agentType, n.status])).toEqual([
      ["main", "main", "running"],
      ["main/plan-1", "plan", "running"],
      ["main/plan-1/explore-2", "explore", "running"],
    ]);
  });

  it("continues a child's totals when it is started again with its task_id", () => {
    const state = buildAgentTree(
      timed([
        start("main/explore-1", "explore", "m", "first"),
        ...turn("main/explore-1", 1, usage(100, 10)),
        end("main/explore-1", "completed"),
        start("main/explore-1", "explore", "m", "second"),
        ...turn("main/explore-1", 1, usage(200, 20)),
      ]),
    );
    expect(node(state, "main/explore-1")).toMatchObject({
      status: "running",
      description: "second",
      turns: 2,
      tokensIn: 300,
      tokensOut: 30,
    });
    expect(node(state, "main/explore-1").endedAt).toBeUndefined();
  });

  it("returns the same state for events that do not change the tree", () => {
    const state = treeAfter(5);
    expect(reduceAgentTree(state, { type: "text_delta", agentPath: ["main"], delta: "hi" }, 9_999)).toBe(
      state,
    );
    expect(reduceAgentTree(state, progress("main", "t1", "npm test: 3 passed"), 9_999)).toBe(state);
  });
});
