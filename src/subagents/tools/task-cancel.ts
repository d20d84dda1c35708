import { readFileSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { z } from "zod";
import { isFinished } from "../../tasks/task-record.ts";
import { type AnyTool, defineTool, type ToolContext, type ToolResult } from "../../tools/tool.ts";
import { ownTask, refuseAtDepthLimit } from "../own-child.ts";
import type { SubagentRuntime } from "../subagent-runtime.ts";

const DESCRIPTION = readFileSync(new URL("./task-cancel.md", import.meta.url), "utf8").trim();

/** How long task_cancel waits for the cancelled children to record their end. */
const CONFIRM_MS = 5_000;

export const taskCancelSchema = z.object({
  task_id: z.string().min(1).describe("The subagent to stop: a task_id you started."),
});

export type TaskCancelArgs = z.infer<typeof taskCancelSchema>;

/** `task_cancel`: stops a child and its descendants (their processes die with them). */
export function createTaskCancelTool(runtime: SubagentRuntime): AnyTool {
  return defineTool({
    name: "task_cancel",
    description: DESCRIPTION,
    schema: taskCancelSchema,
    execute: (args, ctx) => cancelTool(runtime, args, ctx),
  });
}

async function cancelTool(
  runtime: SubagentRuntime,
  args: TaskCancelArgs,
  ctx: ToolContext,
): Promise<ToolResult | string> {
  refuseAtDepthLimit(runtime, ctx);
  const stored = await ownTask(runtime, args.task_id, ctx, "cancel");
  const label = `${stored.agentType} (task_id ${stored.taskId})`;
  if (isFinished(stored.status))
    return `Subagent ${label} had already finished: ${stored.status}. Nothing to cancel.`;
  const cancelled = runtime.cancelTask(stored.taskId, "cancelled by its parent (task_cancel)");
  if (cancelled.length === 0) {
    // It runs in another process: its owner polls the flag and stops it.
    await runtime.store.requestCancel(stored.taskId);
    return `Cancel requested for subagent ${label}, which runs in process ${stored.owner}; that process stops it within a moment. task_wait tells you when it has.`;
  }
  await Promise.race([
    Promise.allSettled(cancelled.map((child) => child.execution?.done)),
    sleep(CONFIRM_MS),
  ]);
  // The parent learns the outcome here; no notification repeats it.
  await runtime.store.markDelivered([stored.taskId]).catch(() => []);
  const after = await runtime.store.get(stored.taskId);
  const descendants = cancelled.length - 1;
  return {
    content:
      `Cancelled subagent ${label}${descendants > 0 ? ` and ${descendants} running subagent(s) it started` : ""}; ` +
      `its record says ${after?.status ?? "unknown"}. Continue it later with task and its task_id if needed.`,
    details: {
      taskId: stored.taskId,
      status: after?.status,
      cancelled: cancelled.map((child) => child.taskId),
    },
  };
}
