import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { textRenderer } from "../../../src/cli/render/text-renderer.ts";
import { resumeTreeAfter, withAgentTree } from "../../../src/cli/render/with-agent-tree.ts";
import type { AgentEvent } from "../../../src/contracts/events.ts";
import type { Outcome } from "../../../src/contracts/outcome.ts";
import type { AssistantMessage } from "../../../src/model/messages.ts";
import { end, start, toolEnd, toolStart, turn, usage } from "./support/tree-events.ts";
import { VirtualTerminal } from "./support/virtual-terminal.ts";

const said = (text: string): AgentEvent[] => {
  const message: AssistantMessage = {
    role: "assistant",
    content: [{ type: "text", text }],
    stopReason: "stop",
    usage: usage(0, 0),
    model: "m",
  };
  return [
    { type: "text_delta", agentPath: ["main"], delta: text },
    { type: "assistant_message", agentPath: ["main"], message },
  ];
};

/** The root delegates to two explore children, then answers. */
const beforeChildrenEnd: AgentEvent[] = [
  start("main", "main", "m"),
  ...said("Delegating."),
  toolStart("main", "t1", "task", { description: "layout" }),
  toolStart("main", "t2", "task", { description: "tests" }),
  start("main/explore-1", "explore", "m", "layout"),
  start("main/explore-2", "explore", "m", "tests"),
  toolStart("main/explore-1", "r1", "read", { path: "src/a.ts" }),
  toolEnd("main/explore-1", "r1", "read"),
  ...turn("main/explore-1", 1, usage(1_000, 10)),
];
const afterChildrenEnd: AgentEvent[] = [
  end("main/explore-1", "completed"),
  toolEnd("main", "t1", "task"),
  ...turn("main/explore-2", 1, usage(2_000, 20)),
  end("main/explore-2", "completed"),
  toolEnd("main", "t2", "task"),
  ...said("All done."),
  end("main", "completed"),
];
const outcome: Outcome = {
  status: "completed",
  text: "All done.",
  turns: 2,
  usage: usage(0, 0),
  durationMs: 1,
  sessionId: "s",
};

const piped = () => {
  const stream = { text: "", write: (chunk: string) => (stream.text += chunk) };
  return stream;
};

describe("withAgentTree, not on a terminal", () => {
  it("adds one line per child start and end and the totals, and keeps the inner renderer's output", () => {
    const stdout = piped();
    const stderr = piped();
    const renderer = withAgentTree(textRenderer, { stdout, stderr }, { now: () => 0 });
    for (const event of [...beforeChildrenEnd, ...afterChildrenEnd]) renderer.event(event);
    renderer.finish(outcome);
    expect(stdout.text).toBe("Delegating.\nAll done.\n");
    const lines = stderr.text.split("\n");
    expect(lines).toContain("[main/explore-1] started explore (m): layout");
    expect(lines).toContain("[main/explore-2] completed in 0ms, 1 turn, 2.0k tokens");
    expect(lines.some((line) => line.startsWith("  [explore-1] ● read  src/a.ts"))).toBe(true);
    expect(lines.at(-2)).toBe("[total] 3 agents (3 done) · 3.0k tokens in / 30 out");
    // A progress line never lands on the end of an unfinished tool line.
    expect(lines.filter((line) => /\S\[main\//.test(line))).toEqual([]);
  });
});

describe("withAgentTree, on a terminal", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("draws the live tree while children run and leaves only the output and one line per child", () => {
    const terminal = new VirtualTerminal(100, 30);
    const renderer = withAgentTree(textRenderer, { stdout: terminal, stderr: terminal });
    for (const event of beforeChildrenEnd) renderer.event(event);
    vi.advanceTimersByTime(250);
    const during = terminal.text();
    expect(during).toMatch(/^├─ explore-1 +explore +m +● thinking \(after read src\/a\.ts\)/m);
    expect(during).toMatch(/^└─ explore-2 /m);
    // The children's own tool lines are left to the tree.
    expect(during).not.toContain("[explore-1] ● read");

    for (const event of afterChildrenEnd) renderer.event(event);
    renderer.finish(outcome);
    expect(terminal.text().split("\n")).toEqual([
      "Delegating.",
      "● task  layout",
      "● task  tests",
      "  ✓ [main/explore-1] completed in 250ms, 1 turn, 1.0k tokens",
      "  task ✓ 5ms",
      "  ✓ [main/explore-2] completed in 250ms, 1 turn, 2.0k tokens",
      "  task ✓ 5ms",
      "All done.",
      "Σ 3 agents (3 done) · 3.0k tokens in / 30 out",
    ]);
  });

  it("keeps the tree away while a prompt owns the terminal, until resumed", () => {
    const terminal = new VirtualTerminal(100, 30);
    const renderer = withAgentTree(textRenderer, { stdout: terminal, stderr: terminal });
    for (const event of beforeChildrenEnd) renderer.event(event);
    renderer.interrupt?.();
    const before = terminal.text();
    expect(before).not.toContain("explore-1");
    renderer.event(toolStart("main/explore-2", "g1", "grep", { pattern: "TODO" }));
    vi.advanceTimersByTime(500);
    expect(terminal.text()).toBe(before);
    renderer.resume();
    vi.advanceTimersByTime(150);
    expect(terminal.text()).toMatch(/└─ explore-2 .*● grep TODO/);
    renderer.finish(outcome);
  });

  it("resumes the tree once a permission prompt is answered, whatever the answer", async () => {
    const terminal = new VirtualTerminal(100, 30);
    const renderer = withAgentTree(textRenderer, { stdout: terminal, stderr: terminal });
    for (const event of beforeChildrenEnd) renderer.event(event);
    const ask = resumeTreeAfter(renderer, async () => {
      renderer.interrupt?.();
      vi.advanceTimersByTime(300);
      expect(terminal.text()).not.toContain("explore-1");
      return "reject";
    });
    const request = {
      permission: "bash",
      patterns: ["rm x"],
      agentPath: ["main", "explore-1"],
      always: ["rm x"],
      alwaysRules: ["Bash(rm x)"],
    };
    await expect(ask(request, new AbortController().signal)).resolves.toBe("reject");
    vi.advanceTimersByTime(150);
    expect(terminal.text()).toContain("├─ explore-1");
    renderer.finish(outcome);
  });
});
