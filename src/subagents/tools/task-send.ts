import { readFileSync } from "node:fs";
import { z } from "zod";
import type { AnyTool } from "../../tools/tool.ts";
import type { CallerScope } from "../tree/caller-scope.ts";
import type { TaskApi } from "../tree/task-api.ts";
import { spawnTool } from "./spawn-tool.ts";

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

/** `task_send`: queue a message into a running child's next turn, or continue a finished one with it. */
export function createTaskSendTool(tasks: TaskApi, caller: CallerScope): AnyTool {
  return spawnTool(
    tasks,
    { name: "task_send", description: DESCRIPTION, schema: taskSendSchema },
    (args, ctx) =>
      tasks.send(
        caller,
        { taskId: args.task_id, message: args.message, interrupt: args.interrupt === true },
        ctx,
      ),
  );
}
