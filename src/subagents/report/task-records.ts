import { addUsage, emptyUsage } from "../../model/messages.ts";
import type { TaskPatch, TaskRecord } from "../../tasks/task-record.ts";
import type { ChildRunReport } from "./child-run-report.ts";
import { failureReason } from "./task-result.ts";

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
