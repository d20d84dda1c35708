import { formatDuration } from "../../text/format-duration.ts";
import type { ToolResult } from "../../tools/tool.ts";
import type { Child } from "../child/child.ts";
import type { ChildRunReport } from "../report/child-run-report.ts";
import { taskFailure, taskResult } from "../report/task-result.ts";

const STEERING =
  "Check it with task_output or task_wait, message it with task_send, stop it with task_cancel.";

/**
 * Waits for a sync child's result, for at most the call timeout (`limits.timeoutMs`). A child still
 * running then is promoted to the background instead of being killed: it goes on, and its result
 * comes as a notification. Returns the wrapped result, or throws the failure as a `ToolError`.
 */
export async function awaitChild(
  timeoutMs: number,
  child: Child,
  done: Promise<ChildRunReport>,
): Promise<ToolResult> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<"timeout">((resolve) => {
    timer = setTimeout(() => resolve("timeout"), timeoutMs);
  });
  const first = await Promise.race([done, timeout]).finally(() => clearTimeout(timer));
  if (first === "timeout" && (await child.detach())) {
    return {
      content:
        `Subagent ${child.definition.name} is still running in the background as task_id ${child.taskId} ` +
        `(it took longer than the ${formatDuration(timeoutMs)} a task call waits), you will be notified with a ` +
        `<task-notification> when it finishes; its result is not lost. Go on with other work meanwhile. ${STEERING}`,
      details: {
        taskId: child.taskId,
        agentType: child.definition.name,
        status: "running",
        promoted: true,
      },
    };
  }
  const report = first === "timeout" ? await done : first;
  if (report.outcome.status === "completed") return taskResult(report);
  throw taskFailure(report);
}

/** What `task` returns at once for a child that runs in the background. */
export function startedInBackground(child: Child, verb: "started" | "continued"): ToolResult {
  return {
    content:
      `Subagent ${child.definition.name} ${verb} in the background as task_id ${child.taskId}. ` +
      `You will be notified with a <task-notification> when it finishes; go on with your own work meanwhile. ${STEERING}`,
    details: {
      taskId: child.taskId,
      agentType: child.definition.name,
      status: "running",
      background: true,
    },
  };
}
