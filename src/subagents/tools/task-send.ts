import { readFileSync } from "node:fs";
import { z } from "zod";
import { type AnyTool, defineTool } from "../../tools/tool.ts";
import type { CallerScope } from "../caller-scope.ts";
import type { TaskApi } from "../task-api.ts";

const DESCRIPTION = readFileSync(new URL("./task-send.md", import.meta.url), "utf8").trim();

export const taskSendSchema = z.object({
  task_id: z.string().min(1).describe("The subagent to message: a task_id you started."),
  message: z
    .string()
    .min(1)
    .describe("What to tell it: a correction, more context, a follow-up question or request."),
  interrupt: z
    .boolean()
    .optional()
    .describe(
      "Stop the running child's current step so it reads the message at once (default false: at its next turn).",
    ),
});

export type TaskSendArgs = z.infer<typeof taskSendSchema>;

/** `task_send`: queue a message into a running child's next turn, or continue a finished one with it. */
export function createTaskSendTool(tasks: TaskApi, caller: CallerScope): AnyTool {
  return defineTool({
    name: "task_send",
    description: DESCRIPTION,
    schema: taskSendSchema,
    execute: (args, ctx) =>
      tasks.send(
        caller,
        { taskId: args.task_id, message: args.message, interrupt: args.interrupt === true },
        ctx,
      ),
  });
}
