import { expect, it } from "vitest";
import { renderAgentTree } from "../../../src/cli/render/agent-tree-view.ts";
import type { AgentEvent } from "../../../src/contracts/events.ts";
import { buildAgentTree, findNode } from "../../../src/tree/agent-tree-state.ts";
import { treeTotals } from "../../../src/tree/agent-tree-totals.ts";
import { start, timed } from "./support/tree-events.ts";

const waitFor = (
  path: string,
  reason: "limit" | "retry_after" | "rate_limit",
  limit: number,
): AgentEvent => ({
  type: "capacity_wait",
  agentPath: path.split("/"),
  reason,
  limit,
  inFlight: limit,
  waiting: 1,
});
const granted = (path: string, limit: number): AgentEvent => ({
  type: "capacity_granted",
  agentPath: path.split("/"),
  waitedMs: 1200,
  limit,
  inFlight: limit,
});
const turnStart = (path: string): AgentEvent => ({ type: "turn_start", agentPath: path.split("/"), turn: 1 });

const running = [
  start("main", "main", "anthropic:claude-sonnet-4-5"),
  start("main/explore-1", "explore", "anthropic:claude-sonnet-4-5", "map the source"),
  start("main/explore-2", "explore", "anthropic:claude-sonnet-4-5", "find the tests"),
  start("main/explore-3", "explore", "anthropic:claude-sonnet-4-5", "read the docs"),
  turnStart("main/explore-1"),
  turnStart("main/explore-2"),
  turnStart("main/explore-3"),
  waitFor("main/explore-2", "limit", 2),
  waitFor("main/explore-3", "retry_after", 2),
];

it("the tree shows which children wait for model capacity, why, and the limit", () => {
  const state = buildAgentTree(timed(running));
  expect(findNode(state, ["main", "explore-2"])?.waiting).toMatchObject({ reason: "limit", limit: 2 });
  const lines = renderAgentTree(state, { now: 10_000, width: 160 });
  expect(lines.find((line) => line.includes("explore-1"))).toContain("thinking");
  expect(lines.find((line) => line.includes("explore-2"))).toContain(
    "waiting for model capacity (2 in flight)",
  );
  expect(lines.find((line) => line.includes("explore-3"))).toContain(
    "waiting: the provider asked to retry later",
  );
  expect(lines.at(-1)).toContain("2 waiting for model capacity (limit 2)");
  expect(treeTotals(state)).toMatchObject({ waitingForModel: 2, modelLimit: 2 });
});

it("a grant, the end of the turn or of the agent ends the wait; the limit shown is the latest reported", () => {
  const state = buildAgentTree(
    timed([
      ...running,
      granted("main/explore-2", 3),
      {
        type: "turn_end",
        agentPath: ["main", "explore-3"],
        turn: 1,
        usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
      },
      waitFor("main/explore-1", "rate_limit", 3),
    ]),
  );
  expect(findNode(state, ["main", "explore-2"])?.waiting).toBeUndefined();
  expect(findNode(state, ["main", "explore-3"])?.waiting).toBeUndefined();
  const lines = renderAgentTree(state, { now: 10_000, width: 160 });
  expect(lines.find((line) => line.includes("explore-1"))).toContain("waiting: the provider's rate limit");
  expect(lines.at(-1)).toContain("1 waiting for model capacity (limit 3)");
});

it("no wait, no mention", () => {
  const state = buildAgentTree(timed(running.slice(0, 7)));
  expect(renderAgentTree(state, { now: 10_000, width: 160 }).join("\n")).not.toContain("capacity");
});
