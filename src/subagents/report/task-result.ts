// What a finished child's report says: to its caller (the `task` tool's result, or the error its model
// reads), and to its TaskRecord (`finishPatch`: the status and reason its outcome maps to).

import { addUsage, emptyUsage } from "../../model/messages.ts";
import type { TaskPatch, TaskRecord } from "../../tasks/task-record.ts";
import { formatCount } from "../../text/format-count.ts";
import { formatDuration } from "../../text/format-duration.ts";
import { ToolError, type ToolResult } from "../../tools/tool.ts";
import type { ChildRunReport } from "./child-run-report.ts";

const NO_TEXT = "(The subagent finished without writing a report: it returned no text.)";

/** A completed child: its final text wrapped with its task_id, status and metrics. */
export function taskResult(report: ChildRunReport): ToolResult {
  const { outcome } = report;
  const attributes = [
    `task_id="${report.taskId}"`,
    `agent="${report.agentType}"`,
    `status="${outcome.status}"`,
    ...(report.branch === undefined ? [] : [`branch="${report.branch}"`]),
  ].join(" ");
  const body = outcome.text.trim() === "" ? NO_TEXT : outcome.text.trim();
  const lines = [`<task_result ${attributes}>`, body, "</task_result>", metricsLine(report)];
  if (report.workspaceNote !== undefined) lines.push(report.workspaceNote);
  return { content: lines.join("\n"), details: reportDetails(report) };
}

/**
 * A child that did not complete: an error the parent's model sees, naming the task_id, the status and
 * the reason, so the parent can continue it, retry or do the work itself.
 */
export function taskFailure(report: ChildRunReport): ToolError {
  const { outcome } = report;
  const lines = [
    `Subagent ${report.agentType} (task_id ${report.taskId}) did not complete: status ${report.outcome.status} — ${failureReason(report)}.`,
  ];
  const partial = outcome.text.trim();
  if (partial !== "") lines.push(`Its last text before it stopped:\n${partial}`);
  lines.push(metricsLine(report));
  if (report.workspaceNote !== undefined) lines.push(report.workspaceNote);
  lines.push(
    `Continue it with task_id "${report.taskId}" and a new prompt, start a new subagent with a narrower task, or do the work yourself.`,
  );
  return new ToolError(lines.join("\n"));
}

/** `turns: 3 · tokens: 1,234 in / 567 out · 4.2 s · model: anthropic:claude-sonnet-4-5` */
export function metricsLine(report: Pick<ChildRunReport, "outcome" | "model">): string {
  const { usage, turns, durationMs } = report.outcome;
  const input = usage.input + usage.cacheRead + usage.cacheWrite;
  const count = formatCount;
  return `turns: ${turns} · tokens: ${count(input)} in / ${count(usage.output)} out · ${formatDuration(durationMs)} · model: ${report.model}`;
}

/** Why a child did not complete, as a phrase ("it failed: …", "it was aborted (…)"). */
export function failureReason(report: Pick<ChildRunReport, "outcome" | "maxTurns">): string {
  const { outcome } = report;
  switch (outcome.status) {
    case "error":
      return `it failed: ${outcome.error}`;
    case "max_turns":
      return report.maxTurns === 1
        ? "it used its only turn without finishing"
        : `it used all ${report.maxTurns} of its turns without finishing`;
    case "aborted":
      return `it was aborted (${outcome.reason})`;
    case "budget_exceeded":
      return `it exceeded its budget (${outcome.reason})`;
    case "completed":
      return "it completed";
  }
}

/**
 * What a finished run writes into its record: the status and reason its outcome maps to, the result
 * (or the partial text and the error), the usage summed over all its runs, and `deliveredAt` when a
 * waiting caller receives the result itself (so no notification repeats it).
 */
export function finishPatch(
  report: ChildRunReport,
  current: TaskRecord,
  delivered: boolean,
  now: Date,
): TaskPatch {
  const { outcome } = report;
  const base: TaskPatch = { usage: addUsage(current.usage ?? emptyUsage(), outcome.usage) };
  if (delivered) base.deliveredAt = now.toISOString();
  if (outcome.status === "completed") return { ...base, status: "COMPLETED", result: outcome.text };
  const partial = outcome.text.trim();
  const failed: TaskPatch = {
    ...base,
    error: failureReason(report),
    ...(partial ? { result: partial } : {}),
  };
  switch (outcome.status) {
    case "aborted":
      return { ...failed, status: "CANCELLED", reason: "cancelled" };
    case "max_turns":
      return { ...failed, status: "FAILED", reason: "max_turns" };
    case "budget_exceeded":
      return { ...failed, status: "FAILED", reason: outcome.budget === "time" ? "timeout" : "budget" };
    case "error":
      return { ...failed, status: "FAILED", ...(outcome.reason === "stalled" ? { reason: "stalled" } : {}) };
  }
}

function reportDetails(report: ChildRunReport): Record<string, unknown> {
  const { outcome } = report;
  return {
    taskId: report.taskId,
    agentType: report.agentType,
    model: report.model,
    status: outcome.status,
    turns: outcome.turns,
    usage: outcome.usage,
    durationMs: outcome.durationMs,
    ...(report.branch === undefined ? {} : { branch: report.branch }),
  };
}
