import { describe, expect, it } from "vitest";
import { renderAgentTree } from "../../../src/cli/render/agent-tree-view.ts";
import { textRenderer } from "../../../src/cli/render/text-renderer.ts";
import type { AgentEvent } from "../../../src/contracts/events.ts";
import { findNode, reduceAgentTree } from "../../../src/tree/agent-tree-state.ts";
import { start } from "./support/tree-events.ts";

const usage = { input: 150_000, output: 900, cacheRead: 0, cacheWrite: 0, cost: 0.15 };
const begin = (path: string[]): AgentEvent => ({
  type: "compaction_start",
  trigger: "auto",
  tokens: 164_000,
  contextWindow: 200_000,
  messages: 48,
  agentPath: path,
});
const done = (path: string[]): AgentEvent => ({
  type: "compacted",
  trigger: "auto",
  tokensBefore: 164_000,
  tokensAfter: 31_000,
  contextWindow: 200_000,
  replacedMessages: 48,
  keptMessages: 4,
  summary: "…",
  model: "anthropic:claude-haiku-4-5",
  usage,
  durationMs: 12_000,
  agentPath: path,
});
const failed = (path: string[]): AgentEvent => ({
  type: "compaction_failed",
  trigger: "auto",
  reason: "model_error",
  error: "the summary call failed: 529 overloaded",
  tokens: 164_000,
  contextWindow: 200_000,
  usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
  agentPath: path,
});

function capture() {
  const out = { stdout: "", stderr: "" };
  const renderer = textRenderer({
    stdout: { write: (text: string) => (out.stdout += text) },
    stderr: { write: (text: string) => (out.stderr += text) },
  });
  return { out, renderer };
}

describe("compaction in the text renderer", () => {
  it("opens a line as it starts and completes it with the sizes, the model and the time", () => {
    const { out, renderer } = capture();
    renderer.event(begin(["main"]));
    renderer.event(done(["main"]));
    expect(out.stderr).toBe(
      "⟳ compacting the conversation (164k tokens, 82% of 200k)  ✓ 164k → 31k tokens: 48 messages summarized by claude-haiku-4-5 in 12.0s\n",
    );
    expect(out.stdout).toBe("");
  });

  it("labels a child's, and says a failed one goes on as it was", () => {
    const { out, renderer } = capture();
    renderer.event(begin(["main", "explore-1"]));
    renderer.event({
      type: "tool_start",
      toolCallId: "a",
      name: "read",
      args: { path: "x" },
      agentPath: ["main"],
    });
    renderer.event(failed(["main", "explore-1"]));
    expect(out.stderr.split("\n")).toEqual([
      "  [explore-1] ⟳ compacting the conversation (164k tokens, 82% of 200k)",
      "● read  x",
      "  [explore-1] ⚠ could not compact the conversation: the summary call failed: 529 overloaded; it goes on as it was",
      "",
    ]);
  });
});

describe("compaction in the live tree", () => {
  it("shows an agent compacting and counts the summary call's tokens and cost", () => {
    let state = reduceAgentTree(
      { nodes: [], tasks: [] },
      start("main", "main", "anthropic:claude-sonnet-4-5"),
      0,
    );
    state = reduceAgentTree(state, begin(["main"]), 1_000);
    expect(findNode(state, ["main"])?.compacting).toEqual({ tokens: 164_000, since: 1_000 });
    const lines = renderAgentTree(state, { now: 2_000, width: 120 });
    expect(lines[0]).toContain("compacting the conversation (164k tokens)");
    state = reduceAgentTree(state, done(["main"]), 3_000);
    const node = findNode(state, ["main"]);
    expect(node?.compacting).toBeUndefined();
    expect(node).toMatchObject({ tokensIn: 150_000, tokensOut: 900, cost: 0.15 });
  });
});
