import { describe, expect, it } from "vitest";
import { textRenderer } from "../../../src/cli/render/text-renderer.ts";
import type { AgentEvent } from "../../../src/contracts/events.ts";
import type { Outcome } from "../../../src/contracts/outcome.ts";
import type { AssistantMessage } from "../../../src/model/messages.ts";

function target() {
  const out = { stdout: "", stderr: "" };
  return {
    out,
    target: {
      stdout: { write: (text: string) => (out.stdout += text) },
      stderr: { write: (text: string) => (out.stderr += text) },
    },
  };
}

const main = ["main"];
const usage = { input: 1, output: 1, cacheRead: 0, cacheWrite: 0 };
const message = (text: string): AssistantMessage => ({
  role: "assistant",
  content: text ? [{ type: "text", text }] : [],
  stopReason: "stop",
  usage,
  model: "m",
});
const outcome = (extra: Partial<Outcome> & Pick<Outcome, "status">): Outcome =>
  ({ text: "", turns: 1, usage, durationMs: 5, sessionId: "s1", ...extra }) as Outcome;

describe("text renderer", () => {
  it("streams the root's text to stdout and ends the line after each message", () => {
    const { out, target: t } = target();
    const r = textRenderer(t);
    const events: AgentEvent[] = [
      { type: "text_delta", delta: "Hel", agentPath: main },
      { type: "text_delta", delta: "lo", agentPath: main },
      { type: "assistant_message", message: message("Hello"), agentPath: main },
    ];
    for (const e of events) r.event(e);
    expect(out.stdout).toBe("Hello\n");
    r.finish(outcome({ status: "completed", text: "Hello" }));
    expect(out.stdout).toBe("Hello\n");
    expect(out.stderr).toBe("");
  });

  it("with answer final, writes the run's answer alone, once, at the end (stdout piped or in a file)", () => {
    const { out, target: t } = target();
    const r = textRenderer(t, { answer: "final" });
    const events: AgentEvent[] = [
      { type: "text_delta", delta: "Started it.", agentPath: main },
      { type: "assistant_message", message: message("Started it."), agentPath: main },
      { type: "text_delta", delta: "The child found 42.", agentPath: main },
      { type: "assistant_message", message: message("The child found 42."), agentPath: main },
    ];
    for (const e of events) r.event(e);
    expect(out.stdout).toBe("");
    r.finish(outcome({ status: "completed", text: "The child found 42." }));
    expect(out.stdout).toBe("The child found 42.\n");
  });

  it("prints a tool on one line with its result when nothing interleaves", () => {
    const { out, target: t } = target();
    const r = textRenderer(t);
    r.event({
      type: "tool_start",
      toolCallId: "a",
      name: "bash",
      args: { command: "npm test" },
      agentPath: main,
    });
    r.event({
      type: "tool_end",
      toolCallId: "a",
      name: "bash",
      isError: false,
      preview: "ok",
      durationMs: 1234,
      agentPath: main,
    });
    r.event({ type: "tool_start", toolCallId: "b", name: "read", args: { path: "x.ts" }, agentPath: main });
    r.event({
      type: "tool_end",
      toolCallId: "b",
      name: "read",
      isError: true,
      preview: "no such file\nmore",
      durationMs: 3,
      agentPath: main,
    });
    expect(out.stderr).toBe("● bash  npm test  ✓ 1.2s\n● read  x.ts  ✗ error: no such file ⏎ more\n");
    expect(out.stdout).toBe("");
  });

  it("names the tool on its result line when concurrent calls interleave", () => {
    const { out, target: t } = target();
    const r = textRenderer(t);
    r.event({
      type: "tool_start",
      toolCallId: "a",
      name: "bash",
      args: { command: "sleep 1" },
      agentPath: main,
    });
    r.event({
      type: "tool_start",
      toolCallId: "b",
      name: "bash",
      args: { command: "sleep 2" },
      agentPath: main,
    });
    r.event({
      type: "tool_end",
      toolCallId: "a",
      name: "bash",
      isError: false,
      preview: "",
      durationMs: 1000,
      agentPath: main,
    });
    r.event({
      type: "tool_end",
      toolCallId: "b",
      name: "bash",
      isError: false,
      preview: "",
      durationMs: 2000,
      agentPath: main,
    });
    expect(out.stderr).toBe("● bash  sleep 1\n● bash  sleep 2\n  bash ✓ 1.0s\n  bash ✓ 2.0s\n");
  });

  it("shows retries and, for runs that did not complete, the reason and how to resume", () => {
    const { out, target: t } = target();
    const r = textRenderer(t);
    r.event({ type: "retry", attempt: 1, delayMs: 500, error: "500 Internal Server Error", agentPath: main });
    r.finish(outcome({ status: "error", error: "the provider failed" }));
    expect(out.stderr).toContain("↻ 500 Internal Server Error — retrying in 500ms (attempt 1)\n");
    expect(out.stderr).toContain("error: the provider failed\n");
    expect(out.stderr).toContain("agentry run --resume s1");
  });

  it("prints 'aborted' for an aborted run", () => {
    const { out, target: t } = target();
    const r = textRenderer(t);
    r.event({ type: "text_delta", delta: "partial", agentPath: main });
    r.finish(outcome({ status: "aborted", reason: "interrupted" }));
    expect(out.stdout).toBe("partial\n");
    expect(out.stderr.split("\n")[0]).toBe("aborted");
  });

  it("prints a message's text when it arrived without deltas, and ignores children's text", () => {
    const { out, target: t } = target();
    const r = textRenderer(t);
    r.event({ type: "text_delta", delta: "child", agentPath: ["main", "explore-1"] });
    r.event({ type: "assistant_message", message: message("whole"), agentPath: main });
    expect(out.stdout).toBe("whole\n");
  });

  it("notes a running tool's progress on its line (an MCP server's), but not bash's output", () => {
    const { out, target: t } = target();
    const r = textRenderer(t);
    r.event({ type: "tool_start", toolCallId: "m", name: "mcp__s__op", args: {}, agentPath: main });
    r.event({
      type: "tool_progress",
      toolCallId: "m",
      name: "mcp__s__op",
      update: "1/4 (25%)",
      agentPath: main,
    });
    r.event({
      type: "tool_end",
      toolCallId: "m",
      name: "mcp__s__op",
      isError: false,
      preview: "",
      durationMs: 3000,
      agentPath: main,
    });
    r.event({ type: "tool_start", toolCallId: "b", name: "bash", args: { command: "ls" }, agentPath: main });
    r.event({ type: "tool_progress", toolCallId: "b", name: "bash", update: "a.txt\n", agentPath: main });
    r.event({
      type: "tool_end",
      toolCallId: "b",
      name: "bash",
      isError: false,
      preview: "",
      durationMs: 5,
      agentPath: main,
    });
    const [mcp, bash] = out.stderr.split("\n");
    expect(mcp).toMatch(/^● mcp__s__op .* · 1\/4 \(25%\) {2}✓ 3\.0s$/);
    expect(bash).not.toContain("a.txt");
  });
});
