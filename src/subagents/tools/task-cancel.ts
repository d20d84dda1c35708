import { readFileSync } from "node:fs";
import { z } from "zod";
import type { AnyTool } from "../../tools/tool.ts";
import type { TaskApi } from "../tree/task-api.ts";
import { spawnTool } from "./spawn-tool.ts";

const DESCRIPTION = readFileSync(new URL("./task-cancel.md", import.meta.url), "utf8").trim();

export const taskCancelSchema = z.object({
  task_id: z.string().min(1).describe("The subagent to stop: a task_id you started."),
});

/** `task_cancel`: stops a child and its descendants (their processes die with them). */
export function createTaskCancelTool(tasks: TaskApi): AnyTool {
  return spawnTool(
    tasks,
    { name: "task_cancel", description: DESCRIPTION, schema: taskCancelSchema },
    async (args, ctx) => {
      const stored = await tasks.own(args.task_id, ctx, "cancel");
      const label = `${stored.agentType} (task_id ${stored.taskId})`;
      const report = await tasks.cancel(stored);
      switch (report.kind) {
        case "finished":
          return `Subagent ${label} had already finished: ${stored.status}. Nothing to cancel.`;
        case "requested":
          return `Cancel requested for subagent ${label}, which runs in process ${stored.owner}; that process stops it within a moment. task_wait tells you when it has.`;
        case "cancelled": {
          const descendants = report.cancelled.length - 1;
          return {
            content:
              `Cancelled subagent ${label}${descendants > 0 ? ` and ${descendants} running subagent(s) it started` : ""}; ` +
              `its record says ${report.record?.status ?? "unknown"}. Continue it later with task and its task_id if needed.`,
            details: { taskId: stored.taskId, status: report.record?.status, cancelled: report.cancelled },
          };
        }
      }
    },
  );
}
