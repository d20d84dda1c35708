import { describe, expect, it } from "vitest";
import { jsonRenderer } from "../../../src/cli/render/json-renderer.ts";
import { streamJsonRenderer } from "../../../src/cli/render/stream-json-renderer.ts";
import type { AgentEvent } from "../../../src/contracts/events.ts";
import type { Outcome } from "../../../src/contracts/outcome.ts";

function collect() {
  const out = { stdout: "", stderr: "" };
  const t = {
    stdout: { write: (text: string) => (out.stdout += text) },
    stderr: { write: (text: string) => (out.stderr += text) },
  };
  return { out, t };
}

const usage = { input: 10, output: 5, cacheRead: 2, cacheWrite: 1, cost: 0.01 };
const completed: Outcome = {
  status: "completed",
  text: "done",
  turns: 2,
  usage,
  durationMs: 42,
  sessionId: "s1",
};
const events: AgentEvent[] = [
  { type: "agent_start", sessionId: "s1", agentType: "main", model: "m", agentPath: ["main"] },
  { type: "text_delta", delta: "done", agentPath: ["main"] },
  { type: "agent_end", outcome: completed, agentPath: ["main"] },
];

describe("json renderer", () => {
  it("prints exactly one result object at the end", () => {
    const { out, t } = collect();
    const r = jsonRenderer(t);
    for (const e of events) r.event(e);
    expect(out.stdout).toBe("");
    r.finish(completed);
    const lines = out.stdout.trimEnd().split("\n");
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0] ?? "")).toEqual({
      v: 1,
      type: "result",
      agentPath: ["main"],
      outcome: "completed",
      result: "done",
      sessionId: "s1",
      usage,
      treeUsage: usage,
      agentRuns: 1,
      turns: 2,
      durationMs: 42,
      costUsd: 0.01,
      subtype: "success",
      is_error: false,
      session_id: "s1",
      num_turns: 2,
      duration_ms: 42,
      total_cost_usd: 0.01,
    });
    expect(out.stderr).toBe("");
  });

  it("carries the error or reason of a run that did not complete", () => {
    const { out, t } = collect();
    jsonRenderer(t).finish({ ...completed, status: "error", error: "boom" });
    expect(JSON.parse(out.stdout)).toMatchObject({ outcome: "error", error: "boom" });
    const aborted = collect();
    jsonRenderer(aborted.t).finish({ ...completed, status: "aborted", reason: "interrupted" });
    expect(JSON.parse(aborted.out.stdout)).toMatchObject({ outcome: "aborted", reason: "interrupted" });
  });

  it("says how a run ended in Claude Code's words too (subtype, is_error)", () => {
    const ended = (status: Outcome["status"]) => {
      const { out, t } = collect();
      const outcome = { ...completed, status } as Outcome;
      jsonRenderer(t).finish(outcome);
      const { subtype, is_error } = JSON.parse(out.stdout) as { subtype: string; is_error: boolean };
      return [subtype, is_error];
    };
    expect(ended("completed")).toEqual(["success", false]);
    expect(ended("max_turns")).toEqual(["error_max_turns", true]);
    expect(ended("budget_exceeded")).toEqual(["error_max_budget_usd", true]);
    expect(ended("error")).toEqual(["error_during_execution", true]);
    expect(ended("aborted")).toEqual(["error_during_execution", true]);
  });
});

describe("stream-json renderer", () => {
  it("prints one versioned line per event, then the result line", () => {
    const { out, t } = collect();
    const r = streamJsonRenderer(t);
    for (const e of events) r.event(e);
    r.finish(completed);
    const lines = out.stdout
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(lines.map((l) => l.type)).toEqual(["agent_start", "text_delta", "agent_end", "result"]);
    expect(lines.every((l) => l.v === 1)).toBe(true);
    expect(lines[1]).toEqual({ v: 1, type: "text_delta", delta: "done", agentPath: ["main"] });
  });

  it("gives the result line the root's agentPath, even when a child's event came last", () => {
    const { out, t } = collect();
    const r = streamJsonRenderer(t);
    const root = ["lead"];
    const child = ["lead", "explore-1"];
    r.event({ type: "agent_start", sessionId: "s1", agentType: "main", model: "m", agentPath: root });
    r.event({ type: "agent_start", sessionId: "sub-1", agentType: "explore", model: "m", agentPath: child });
    r.event({ type: "agent_end", outcome: { ...completed, sessionId: "sub-1" }, agentPath: child });
    r.finish(completed);
    const last = JSON.parse(out.stdout.trimEnd().split("\n").at(-1) ?? "");
    expect(last).toMatchObject({ type: "result", agentPath: root, sessionId: "s1" });
  });
});
