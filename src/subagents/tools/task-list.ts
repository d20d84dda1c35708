import { readFileSync } from "node:fs";
import { z } from "zod";
import { TASK_STATUSES } from "../../tasks/task-record.ts";
import type { AnyTool } from "../../tools/tool.ts";
import { taskLine } from "../report/task-view.ts";
import type { TaskApi } from "../tree/task-api.ts";
import { spawnTool } from "./spawn-tool.ts";

const DESCRIPTION = readFileSync(new URL("./task-list.md", import.meta.url), "utf8").trim();

export const taskListSchema = z.object({
  status: z.enum(TASK_STATUSES).optional().describe("Only tasks with this status."),
});

/** `task_list`: the tasks the calling agent (this session) started. */
export function createTaskListTool(tasks: TaskApi): AnyTool {
  return spawnTool(
    tasks,
    { name: "task_list", description: DESCRIPTION, schema: taskListSchema, readOnly: true },
    async (args, ctx) => {
      const records = await tasks.list(ctx, args.status);
      if (records.length === 0)
        return args.status === undefined
          ? "You have started no subagents."
          : `None of your subagents is ${args.status}.`;
      return {
        content: [
          `${records.length} subagent task(s), newest first:`,
          ...records.map((record) => taskLine(record)),
        ].join("\n"),
        details: { tasks: records.map((record) => ({ taskId: record.taskId, status: record.status })) },
      };
    },
  );
}
