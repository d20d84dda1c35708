import { readFileSync } from "node:fs";
import { z } from "zod";
import { isFinished, type TaskRecord } from "../../tasks/task-record.ts";
import { formatDuration } from "../../text/format-duration.ts";
import type { AnyTool, ToolContext } from "../../tools/tool.ts";
import { taskReport } from "../report/task-view.ts";
import type { TaskApi } from "../tree/task-api.ts";
import { clampTimeout } from "../tree/wait-for-tasks.ts";
import { spawnTool } from "./spawn-tool.ts";

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

/** `task_wait`: the pull path for background results. */
export function createTaskWaitTool(tasks: TaskApi): AnyTool {
  return spawnTool(
    tasks,
    { name: "task_wait", description: DESCRIPTION, schema: taskWaitSchema, readOnly: true },
    async (args, ctx) => {
      const ids = args.task_ids === undefined ? await defaultTargets(tasks, ctx) : unique(args.task_ids);
      if (ids.length === 0) {
        return "Nothing to wait for: none of your subagents is running and every result has been delivered to you.";
      }
      for (const id of ids) await tasks.own(id, ctx, "wait for");
      const mode = args.mode ?? "all";
      const timeoutMs = clampTimeout(args.timeout_s);
      const onChange = (records: TaskRecord[]) => {
        const finished = records.filter((record) => isFinished(record.status)).length;
        ctx.progress(`${finished} of ${records.length} subagents finished`);
      };
      const outcome = await tasks.wait({ taskIds: ids, mode, timeoutMs, onChange }, ctx.signal);
      const finished = outcome.records.filter((record) => isFinished(record.status));
      // Results seen here need no notification later.
      await tasks.markDelivered(finished.map((record) => record.taskId));
      const head = `${finished.length} of ${outcome.records.length} finished${
        outcome.timedOut
          ? ` (stopped waiting after ${formatDuration(timeoutMs)}; the others keep running)`
          : ""
      }.`;
      const reports = outcome.records.map((record) => taskReport(record, tasks.progress(record.taskId)));
      return {
        content: [head, ...reports].join("\n\n"),
        details: { timedOut: outcome.timedOut, statuses: Object.fromEntries(statuses(outcome.records)) },
      };
    },
  );
}

/** The caller's tasks that are still running, or finished with a result it has not been given. */
async function defaultTargets(tasks: TaskApi, ctx: ToolContext): Promise<string[]> {
  const records = await tasks.list(ctx);
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
