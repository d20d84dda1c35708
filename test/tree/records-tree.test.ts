import { describe, expect, it } from "vitest";
import type { AgentEvent } from "../../src/contracts/events.ts";
import type { TaskRecord } from "../../src/tasks/task-record.ts";
import { buildAgentTree, findNode } from "../../src/tree/agent-tree-state.ts";
import { treeTotals } from "../../src/tree/agent-tree-totals.ts";
import { nodeActivity } from "../../src/tree/node-activity.ts";
import { activityText } from "../../src/tree/node-text.ts";
import { recordsTree } from "../../src/tree/records-tree.ts";
import { start, timed, toolStart, turn, usage } from "../cli/render/support/tree-events.ts";

const T = (seconds: number) =>
  new Date(Date.parse("2026-03-01T10:00:00.000Z") + seconds * 1000).toISOString();

function record(taskId: string, overrides: Partial<TaskRecord> = {}): TaskRecord {
  return {
    taskId,
    agentType: "explore",
    parentAgentId: "main",
    parentSessionId: "run-a",
    childSessionId: taskId,
    description: `task ${taskId}`,
    status: "RUNNING",
    cancelRequested: false,
    createdAt: T(1),
    updatedAt: T(2),
    owner: "host:1",
    background: true,
    ...overrides,
  };
}

const keys = (records: TaskRecord[]) => recordsTree(records).nodes.map((node) => node.key);

describe("recordsTree", () => {
  it("gives each run its own root, newest run first, a parent before its children", () => {
    const records = [
      record("a1", { agentPath: ["main", "explore-1"], createdAt: T(1) }),
      record("b1", { agentPath: ["main", "explore-1"], parentSessionId: "run-b", createdAt: T(5) }),
      record("a2", { agentPath: ["main", "review-1"], agentType: "review", createdAt: T(2) }),
      // A grandchild: its parent's session is a1's.
      record("a1x", {
        agentPath: ["main", "explore-1", "general-purpose-1"],
        parentSessionId: "a1",
        parentAgentId: "explore-1",
        createdAt: T(3),
      }),
    ];
    expect(keys(records)).toEqual([
      "run-b",
      "run-b/explore-1",
      "run-a",
      "run-a/explore-1",
      "run-a/explore-1/general-purpose-1",
      "run-a/review-1",
    ]);
    const root = findNode(recordsTree(records), ["run-a"]);
    expect(root).toMatchObject({ agentType: "main", inferred: true, status: "running", sessionId: "run-a" });
  });

  it("places a record without an agentPath under its parent's node", () => {
    const records = [
      record("p", { agentPath: ["main", "explore-1"] }),
      record("c", { parentSessionId: "p" }),
    ];
    expect(keys(records)).toEqual(["run-a", "run-a/explore-1", "run-a/explore-1/c"]);
  });

  it("maps statuses, says where each task runs, and takes a finished task's usage and reason", () => {
    const tree = recordsTree([
      record("q", { agentPath: ["main", "a-1"], status: "PENDING" }),
      record("w", { agentPath: ["main", "b-1"], ref: { kind: "queue", queue: "agentry", jobId: "j-1" } }),
      record("r", {
        agentPath: ["main", "c-1"],
        ref: { kind: "a2a", url: "http://far:4180/agents/explore", contextId: "c" },
        status: "CANCELLED",
        reason: "cancelled",
      }),
      record("f", {
        agentPath: ["main", "d-1"],
        status: "FAILED",
        error: "\nthe model call failed\nat …",
        usage: { ...usage(100, 20, 0.5), cacheRead: 30 },
        activity: { turns: 3, tokensIn: 1, tokensOut: 1, tools: [{ name: "bash", arg: "npm test" }] },
      }),
    ]);
    const node = (name: string) => findNode(tree, ["run-a", name]);
    expect(node("a-1")).toMatchObject({ status: "queued", runsAt: { kind: "local", owner: "host:1" } });
    expect(node("b-1")).toMatchObject({
      status: "running",
      runsAt: { kind: "worker", queue: "agentry", jobId: "j-1" },
    });
    expect(node("c-1")).toMatchObject({
      status: "aborted",
      error: "cancelled",
      runsAt: { kind: "remote", url: "http://far:4180/agents/explore" },
    });
    expect(node("d-1")).toMatchObject({
      status: "failed",
      error: "the model call failed",
      turns: 3,
      tokensIn: 130,
      tokensOut: 20,
      cost: 0.5,
      tools: [],
    });
    expect(findNode(tree, ["run-a"])).toMatchObject({ status: "running" });
  });

  it("draws a running task as the owner's events drew it: the activity its owner wrote is the node's", () => {
    const events: AgentEvent[] = [
      start("main", "main", "m"),
      start("main/explore-1", "explore", "anthropic:claude-haiku-4-5", "map the code"),
      ...turn("main/explore-1", 1, usage(1200, 80, 0.002)),
      { type: "turn_start", agentPath: ["main", "explore-1"], turn: 2 },
      toolStart("main/explore-1", "c1", "read", { path: "src/a.ts" }),
      toolStart("main/explore-1", "c2", "grep", { pattern: "TODO", path: "src" }),
    ];
    const owner = findNode(buildAgentTree(timed(events)), ["main", "explore-1"])!;
    const web = findNode(
      recordsTree([record("t", { agentPath: ["main", "explore-1"], activity: nodeActivity(owner) })]),
      ["run-a", "explore-1"],
    )!;
    expect(activityText(web)).toBe(activityText(owner));
    expect(activityText(web)).toBe("grep TODO in src +1");
    expect(web).toMatchObject({
      turns: owner.turns,
      tokensIn: owner.tokensIn,
      tokensOut: owner.tokensOut,
      cost: owner.cost,
    });

    const waiting = { ...owner, tools: [], waiting: { reason: "limit" as const, limit: 4, since: 0 } };
    const webWaiting = findNode(
      recordsTree([record("t", { agentPath: ["main", "explore-1"], activity: nodeActivity(waiting) })]),
      ["run-a", "explore-1"],
    )!;
    expect(activityText(webWaiting)).toBe(activityText(waiting));
    expect(activityText(webWaiting)).toBe("waiting for model capacity (4 in flight)");
  });

  it("counts a workflow's phases as groups, not agents", () => {
    const tree = recordsTree([
      record("wf", { agentType: "workflow", agentPath: ["main", "review"] }),
      record("g1", {
        agentType: "general-purpose",
        agentPath: ["main", "review", "verify", "general-purpose-1"],
        parentSessionId: "run-a",
      }),
    ]);
    expect(findNode(tree, ["run-a", "review", "verify"])).toMatchObject({
      agentType: "phase",
      inferred: true,
    });
    // The root is drawn from its children; the workflow and its phase are groups.
    expect(treeTotals(tree)).toMatchObject({ agents: 2, children: 1, running: 2 });
  });

  it("shows two records at one path (a name used again by a later process) both", () => {
    expect(
      keys([
        record("x1", { agentPath: ["main", "explore-1"] }),
        record("x2", { agentPath: ["main", "explore-1"], createdAt: T(9) }),
      ]),
    ).toEqual(["run-a", "run-a/explore-1", "run-a/explore-1#x2"]);
  });
});
