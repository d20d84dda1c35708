import { readFileSync } from "node:fs";
import { z } from "zod";
import { userText } from "../../model/messages.ts";
import { type AnyTool, defineTool, type ToolContext, ToolError, type ToolResult } from "../../tools/tool.ts";
import type { CallerScope } from "../caller-scope.ts";
import { ownChild, refuseAtDepthLimit } from "../own-child.ts";
import { continueChild } from "../spawn-child.ts";
import type { SubagentRuntime } from "../subagent-runtime.ts";

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
export function createTaskSendTool(runtime: SubagentRuntime, caller: CallerScope): AnyTool {
  return defineTool({
    name: "task_send",
    description: DESCRIPTION,
    schema: taskSendSchema,
    execute: (args, ctx) => sendToChild(runtime, caller, args, ctx),
  });
}

async function sendToChild(
  runtime: SubagentRuntime,
  caller: CallerScope,
  args: TaskSendArgs,
  ctx: ToolContext,
): Promise<ToolResult> {
  refuseAtDepthLimit(runtime, ctx);
  const record = await ownChild(runtime, caller, args.task_id, ctx, "message");
  const execution = record.running ? record.execution : undefined;
  if (execution?.takesMessages) {
    record.mailbox.push(userText(args.message));
    if (args.interrupt === true) execution.interrupt();
    const when =
      args.interrupt === true
        ? "its current step was interrupted and it turns to your message now"
        : "it reads your message at its next turn";
    return {
      content: `Queued for ${record.definition.name} (task_id ${record.taskId}): ${when}. Its answer comes with its result${record.background ? ", as a <task-notification> when it finishes" : ""}.`,
      details: { taskId: record.taskId, queued: true, interrupted: args.interrupt === true },
    };
  }
  // Ending right now: let it write its outcome, then continue it like a finished child.
  if (execution) await execution.done;
  if (record.running) {
    throw new ToolError(
      `Subagent ${record.taskId} was continued by another call meanwhile; send the message again.`,
    );
  }
  return continueChild(runtime, record, args.message, record.description, undefined, ctx);
}
