import type { Usage, UserMessage } from "../../model/messages.ts";
import { runsAt } from "../../tasks/runs-at.ts";
import { isFinished, type TaskRecord } from "../../tasks/task-record.ts";
import { formatCount } from "../../text/format-count.ts";
import { formatDuration } from "../../text/format-duration.ts";
import type { ChildTree } from "../tree/child-tree.ts";
import type { TaskProgress } from "../tree/task-api.ts";

/** How far a child working in this process has got; undefined for one that does not work here. */
export function progressOf(tree: ChildTree, taskId: string): TaskProgress | undefined {
  const child = tree.get(taskId);
  if (!child?.active) return undefined;
  const { progress } = child;
  return {
    turns: progress.turns,
    lastTool: progress.lastTool,
    toolRunning: progress.toolsInFlight > 0,
    elapsedMs: Date.now() - progress.startedAt,
  };
}

/** `- sub-… · explore · COMPLETED · 4.2 s · "Find the parser"` */
export function taskLine(record: TaskRecord, now = Date.now()): string {
  const reason = record.reason === undefined ? "" : ` (${record.reason})`;
  const mode = record.background ? " · background" : "";
  const where = record.ref === undefined ? "" : ` · ${runsAt(record.ref)}`;
  return `- ${record.taskId} · ${record.agentType} · ${record.status}${reason} · ${formatDuration(elapsed(record, now))}${mode}${where} · "${record.description}"`;
}

/** A task's status, progress and, once it finished, its result or error: what task_output and task_wait show. */
export function taskReport(record: TaskRecord, progress?: TaskProgress, now = Date.now()): string {
  const reason = record.reason === undefined ? "" : ` reason="${record.reason}"`;
  const lines = [
    `<task task_id="${record.taskId}" agent="${record.agentType}" status="${record.status}"${reason}>`,
    `description: ${record.description}`,
  ];
  if (record.ref !== undefined) lines.push(`runs at: ${runsAt(record.ref)}`);
  if (!isFinished(record.status)) {
    const parts = [`elapsed ${formatDuration(progress?.elapsedMs ?? elapsed(record, now))}`];
    if (progress) {
      parts.push(`turns ${progress.turns}`);
      if (progress.lastTool !== undefined)
        parts.push(`last tool: ${progress.lastTool}${progress.toolRunning ? " (running)" : ""}`);
    } else if (record.owner !== "") parts.push(`runs in process ${record.owner}`);
    lines.push(`progress: ${parts.join(" · ")}`);
  } else {
    lines.push(`finished after ${formatDuration(elapsed(record, now))}${usageText(record.usage)}`);
    if (record.error !== undefined) lines.push(`error: ${record.error}`);
    const result = record.result?.trim() ?? "";
    if (result !== "") lines.push(record.status === "COMPLETED" ? "result:" : "last text:", result);
    else if (record.status === "COMPLETED") lines.push("result: (no text)");
  }
  lines.push("</task>");
  return lines.join("\n");
}

/**
 * The one user message that tells a parent its children finished: a `<task-notification>` block per
 * task with its status and result or error.
 */
export function notificationMessage(records: readonly TaskRecord[]): UserMessage {
  return {
    role: "user",
    content: records.map((record) => ({ type: "text", text: notificationText(record) })),
  };
}

export function notificationText(record: TaskRecord): string {
  const lines = [
    "<task-notification>",
    `<task-id>${record.taskId}</task-id>`,
    `<agent>${record.agentType}</agent>`,
    `<description>${record.description}</description>`,
    `<status>${record.status.toLowerCase()}</status>`,
  ];
  if (record.reason !== undefined) lines.push(`<reason>${record.reason}</reason>`);
  if (record.error !== undefined) lines.push(`<error>${record.error}</error>`);
  const result = record.result?.trim() ?? "";
  if (record.status === "COMPLETED")
    lines.push(`<result>\n${result === "" ? "(no text)" : result}\n</result>`);
  else if (result !== "") lines.push(`<partial-result>\n${result}\n</partial-result>`);
  const usage = usageText(record.usage).replace(/^ · /, "");
  if (usage !== "") lines.push(`<usage>${usage}</usage>`);
  lines.push("</task-notification>");
  if (record.status !== "COMPLETED")
    lines.push(`Continue it with task (task_id "${record.taskId}") or task_send, or do the work yourself.`);
  return lines.join("\n");
}

function usageText(usage: Usage | undefined): string {
  if (!usage) return "";
  const input = usage.input + usage.cacheRead + usage.cacheWrite;
  const count = formatCount;
  return ` · tokens: ${count(input)} in / ${count(usage.output)} out`;
}

function elapsed(record: TaskRecord, now: number): number {
  const end = isFinished(record.status) ? Date.parse(record.updatedAt) : now;
  return Math.max(0, end - Date.parse(record.createdAt));
}
