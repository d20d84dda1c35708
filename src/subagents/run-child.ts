import type { AgentEvent } from "../agent/events.ts";
import { runAgentLoop } from "../agent/loop.ts";
import type { Outcome } from "../agent/outcome.ts";
import { userText } from "../model/messages.ts";
import { type ToolContext, ToolError, type ToolResult } from "../tools/tool.ts";
import type { WorkspaceReport } from "./child-workspace.ts";
import type { ChildRecord, SubagentRuntime } from "./subagent-runtime.ts";
import { type ChildRunReport, taskFailure, taskResult } from "./task-result.ts";

/**
 * Waits for a running slot (telling the caller it is queued), runs `work`, and frees the slot.
 * Throws a `ToolError` when the caller is aborted while queued.
 */
export async function withSlot<T>(
  runtime: SubagentRuntime,
  ctx: ToolContext,
  label: string,
  work: () => Promise<T>,
): Promise<T> {
  const queued = runtime.running >= runtime.limits.maxConcurrent;
  if (queued) {
    ctx.progress(
      `queued ${label}: ${runtime.running} subagents running (limit ${runtime.limits.maxConcurrent}), ${runtime.queued} already waiting`,
    );
  }
  let release: () => void;
  try {
    release = await runtime.acquireSlot(ctx.signal);
  } catch {
    throw new ToolError(
      `Subagent ${label} was not started: the run was aborted while it waited for a free slot.`,
    );
  }
  try {
    if (queued) ctx.progress(`started ${label}`);
    return await work();
  } finally {
    release();
  }
}

/**
 * Appends `prompt` to the child's session and runs it to an outcome, with its events bubbling into
 * the caller's stream, aborted with the caller or at the wall-clock limit. Returns the wrapped result,
 * or throws a `ToolError` naming the task_id when the child did not complete. The caller marks the
 * record running.
 */
export async function runChild(
  runtime: SubagentRuntime,
  record: ChildRecord,
  prompt: string,
  description: string,
  ctx: ToolContext,
): Promise<ToolResult> {
  await record.workspace.reopen();
  await record.session.append(userText(prompt));
  const { outcome, timedOut } = await runBounded(runtime.limits.timeoutMs, record, description, ctx);
  const workspace = await finishWorkspace(record);
  const report: ChildRunReport = {
    taskId: record.taskId,
    agentType: record.definition.name,
    model: record.config.model.id,
    outcome,
    maxTurns: record.config.maxTurns ?? runtime.limits.maxTurns,
    ...(timedOut ? { timedOutAfterMs: runtime.limits.timeoutMs } : {}),
    ...(workspace.branch === undefined ? {} : { branch: workspace.branch }),
    ...(workspace.note === undefined ? {} : { workspaceNote: workspace.note }),
  };
  if (outcome.status === "completed") return taskResult(report);
  throw taskFailure(report);
}

async function runBounded(
  timeoutMs: number,
  record: ChildRecord,
  description: string,
  ctx: ToolContext,
): Promise<{ outcome: Outcome; timedOut: boolean }> {
  const controller = new AbortController();
  let timedOut = false;
  const onParentAbort = () => controller.abort(ctx.signal.reason);
  if (ctx.signal.aborted) onParentAbort();
  else ctx.signal.addEventListener("abort", onParentAbort, { once: true });
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(`the subagent exceeded its wall-clock limit of ${timeoutMs} ms`);
  }, timeoutMs);
  // The loop's own agent_start is the one that says the child really started; it gains the description.
  const emit = (event: AgentEvent) => {
    if (event.type === "agent_start" && event.sessionId === record.session.id)
      ctx.emit({ ...event, description });
    else ctx.emit(event);
  };
  try {
    const outcome = await runAgentLoop(record.config, record.session, emit, controller.signal);
    return { outcome, timedOut: timedOut && outcome.status === "aborted" };
  } finally {
    clearTimeout(timer);
    ctx.signal.removeEventListener("abort", onParentAbort);
  }
}

async function finishWorkspace(record: ChildRecord): Promise<WorkspaceReport> {
  try {
    return await record.workspace.finish();
  } catch (error) {
    return {
      note: `Its ${record.workspace.mode} workspace at ${record.workspace.path} could not be cleaned up: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
}
