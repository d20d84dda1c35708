import { readFileSync } from "node:fs";
import { z } from "zod";
import { isFinished, type TaskRecord } from "../../tasks/task-record.ts";
import { formatDuration } from "../../text/format-duration.ts";
import { type AnyTool, defineTool, type ToolContext, type ToolResult } from "../../tools/tool.ts";
import { ownTask, refuseAtDepthLimit } from "../own-child.ts";
import type { SubagentRuntime } from "../subagent-runtime.ts";
import { progressOf, taskReport } from "../task-view.ts";
import { clampTimeout, waitForTasks } from "../wait-for-tasks.ts";

const DESCRIPTION = readFileSync(new URL("./task-wait.md", import.meta.url), "utf8").trim();

export const taskWaitSchema = z.object({
  task_ids: z
    .array(z.string().min(1))
    .optional()
    .describe(
      "The subagents to wait for (default: yours that are running or whose results you have not seen).",
    ),
  mode: z
    .enum(["any", "all"])
    .optional()
    .describe("all (default): return when every one has finished; any: as soon as one has."),
  timeout_s: z.number().optional().describe("Seconds to wait at most (default 30, clamped to 1–3600)."),
});

export type TaskWaitArgs = z.infer<typeof taskWaitSchema>;

/** `task_wait`: the pull path for background results. */
export function createTaskWaitTool(runtime: SubagentRuntime): AnyTool {
  return defineTool({
    name: "task_wait",
    description: DESCRIPTION,
    schema: taskWaitSchema,
    readOnly: true,
    execute: (args, ctx) => waitTool(runtime, args, ctx),
  });
}

async function waitTool(
  runtime: SubagentRuntime,
  args: TaskWaitArgs,
  ctx: ToolContext,
): Promise<ToolResult | string> {
  refuseAtDepthLimit(runtime, ctx);
  const ids = args.task_ids === undefined ? await defaultTargets(runtime, ctx) : unique(args.task_ids);
  if (ids.length === 0) {
    return "Nothing to wait for: none of your subagents is running and every result has been delivered to you.";
  }
  for (const id of ids) await ownTask(runtime, id, ctx, "wait for");
  const mode = args.mode ?? "all";
  const timeoutMs = clampTimeout(args.timeout_s);
  const outcome = await waitForTasks(runtime, ids, mode, timeoutMs, ctx.signal, (records) => {
    const finished = records.filter((record) => isFinished(record.status)).length;
    ctx.progress(`${finished} of ${records.length} subagents finished`);
  });
  const finished = outcome.records.filter((record) => isFinished(record.status));
  // Results seen here need no notification later.
  await runtime.store.markDelivered(finished.map((record) => record.taskId)).catch(() => []);
  const head = `${finished.length} of ${outcome.records.length} finished${
    outcome.timedOut ? ` (stopped waiting after ${formatDuration(timeoutMs)}; the others keep running)` : ""
  }.`;
  const reports = outcome.records.map((record) => taskReport(record, progressOf(runtime, record.taskId)));
  return {
    content: [head, ...reports].join("\n\n"),
    details: { timedOut: outcome.timedOut, statuses: Object.fromEntries(statuses(outcome.records)) },
  };
}

/** The caller's tasks that are still running, or finished with a result it has not been given. */
async function defaultTargets(runtime: SubagentRuntime, ctx: ToolContext): Promise<string[]> {
  const records = await runtime.store.list({
    parentSessionId: ctx.agent.sessionId,
    parentAgentId: ctx.agent.path.at(-1) ?? "main",
    onUnreadable: () => {},
  });
  return records
    .filter((record) => !isFinished(record.status) || record.deliveredAt === undefined)
    .map((record) => record.taskId)
    .reverse();
}

function statuses(records: readonly TaskRecord[]): Array<[string, string]> {
  return records.map((record) => [record.taskId, record.status]);
}

function unique(ids: readonly string[]): string[] {
  return [...new Set(ids)];
}
