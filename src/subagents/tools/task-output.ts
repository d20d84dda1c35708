import { readFileSync } from "node:fs";
import { z } from "zod";
import { isFinished } from "../../tasks/task-record.ts";
import { formatDuration } from "../../text/format-duration.ts";
import type { AnyTool } from "../../tools/tool.ts";
import { taskReport } from "../report/task-view.ts";
import type { TaskApi } from "../tree/task-api.ts";
import { clampTimeout } from "../tree/wait-for-tasks.ts";
import { spawnTool } from "./spawn-tool.ts";

const DESCRIPTION = readFileSync(new URL("./task-output.md", import.meta.url), "utf8").trim();

export const taskOutputSchema = z.object({
  task_id: z.string().min(1).describe("The subagent to look at: a task_id you started."),
  block: z.boolean().optional().describe("Wait until it has finished before answering (default false)."),
  timeout_s: z
    .number()
    .optional()
    .describe("With block: seconds to wait at most (default 30, clamped to 1–3600)."),
});

/** `task_output`: one child's status, progress and result. */
export function createTaskOutputTool(tasks: TaskApi): AnyTool {
  return spawnTool(
    tasks,
    { name: "task_output", description: DESCRIPTION, schema: taskOutputSchema, readOnly: true },
    async (args, ctx) => {
      let record = await tasks.own(args.task_id, ctx, "read");
      let note = "";
      if (args.block === true && !isFinished(record.status)) {
        const timeoutMs = clampTimeout(args.timeout_s);
        const outcome = await tasks.wait({ taskIds: [record.taskId], mode: "all", timeoutMs }, ctx.signal);
        record = outcome.records[0] ?? record;
        if (outcome.timedOut) note = `\nStill running after waiting ${formatDuration(timeoutMs)}.`;
      }
      if (isFinished(record.status)) await tasks.markDelivered([record.taskId]);
      const progress = tasks.progress(record.taskId);
      return {
        content: taskReport(record, progress) + note,
        details: {
          taskId: record.taskId,
          status: record.status,
          ...(progress === undefined ? {} : { turns: progress.turns, lastTool: progress.lastTool }),
        },
      };
    },
  );
}
