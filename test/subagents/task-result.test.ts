import { expect, test } from "vitest";
import type { Outcome } from "../../src/contracts/outcome.ts";
import type { ChildRunReport } from "../../src/subagents/report/child-run-report.ts";
import { taskFailure, taskResult } from "../../src/subagents/report/task-result.ts";
import { ToolError } from "../../src/tools/tool.ts";

const usage = { input: 1200, output: 340, cacheRead: 34, cacheWrite: 0 };
const base = { turns: 3, usage, durationMs: 4210, sessionId: "sub-1" };
const report = (outcome: Outcome, extra: Partial<ChildRunReport> = {}): ChildRunReport => ({
  taskId: "sub-1",
  agentType: "explore",
  model: "anthropic:claude-haiku-4-5",
  outcome,
  maxTurns: 30,
  ...extra,
});

test("a completed child: its text wrapped with task_id, agent and status, then the metrics", () => {
  const result = taskResult(report({ ...base, status: "completed", text: "  The tests use vitest.\n" }));
  expect(result.content).toBe(
    [
      '<task_result task_id="sub-1" agent="explore" status="completed">',
      "The tests use vitest.",
      "</task_result>",
      "turns: 3 · tokens: 1,234 in / 340 out · 4.2s · model: anthropic:claude-haiku-4-5",
    ].join("\n"),
  );
  expect(result.details).toMatchObject({ taskId: "sub-1", status: "completed", turns: 3 });
});

test("a child that ended without text is reported plainly", () => {
  const result = taskResult(report({ ...base, status: "completed", text: "" }));
  expect(result.content).toContain("(The subagent finished without writing a report: it returned no text.)");
});

test("a worktree child's branch is an attribute, and the note follows the metrics", () => {
  const result = taskResult(
    report(
      { ...base, status: "completed", text: "done" },
      { branch: "agentry/x-sub-1", workspaceNote: "See the branch." },
    ),
  );
  expect(result.content.split("\n")[0]).toBe(
    '<task_result task_id="sub-1" agent="explore" status="completed" branch="agentry/x-sub-1">',
  );
  expect(result.content.endsWith("\nSee the branch.")).toBe(true);
});

test.each([
  [
    { ...base, status: "error", error: "HTTP 500 overloaded", text: "" } as Outcome,
    {},
    "status error — it failed: HTTP 500 overloaded.",
  ],
  [
    { ...base, status: "max_turns", text: "half way" } as Outcome,
    {},
    "status max_turns — it used all 30 of its turns without finishing.",
  ],
  [
    { ...base, status: "aborted", reason: "user pressed Ctrl-C", text: "" } as Outcome,
    {},
    "status aborted — it was aborted (user pressed Ctrl-C).",
  ],
])("a failed child is a ToolError naming task_id, status and reason (%#)", (outcome, extra, reason) => {
  const error = taskFailure(report(outcome, extra));
  expect(error).toBeInstanceOf(ToolError);
  expect(error.message.split("\n")[0]).toBe(`Subagent explore (task_id sub-1) did not complete: ${reason}`);
  expect(error.message).toContain('Continue it with task_id "sub-1"');
  expect(error.message).toContain("turns: 3 · tokens:");
});
