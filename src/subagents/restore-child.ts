import { Session, SessionNotFoundError } from "../agent/session.ts";
import { SessionBusyError } from "../agent/session-lock.ts";
import { TranscriptFormatError } from "../agent/transcript.ts";
import { isSubagent } from "../agents/definition.ts";
import type { Model } from "../model/model.ts";
import { isFinished, type TaskRecord } from "../tasks/task-record.ts";
import { type ToolContext, ToolError } from "../tools/tool.ts";
import type { CallerScope } from "./caller-scope.ts";
import { buildChild } from "./child-config.ts";
import type { ChildRecord, SubagentRuntime } from "./subagent-runtime.ts";

/**
 * Rebuilds a finished child that is not in memory (it ran in an earlier process) from its TaskRecord
 * and its transcript: the same definition, model, path and depth, the caller's rules and tools as they
 * are now, and its whole history. Concurrent calls for one id share one rebuild.
 */
export function restoreChild(
  runtime: SubagentRuntime,
  caller: CallerScope,
  stored: TaskRecord,
  ctx: ToolContext,
): Promise<ChildRecord> {
  const pending = runtime.restoring;
  const existing = pending.get(stored.taskId);
  if (existing) return existing;
  const rebuilt = rebuild(runtime, caller, stored, ctx).finally(() => pending.delete(stored.taskId));
  pending.set(stored.taskId, rebuilt);
  return rebuilt;
}

async function rebuild(
  runtime: SubagentRuntime,
  caller: CallerScope,
  stored: TaskRecord,
  ctx: ToolContext,
): Promise<ChildRecord> {
  const record = await settledRecord(runtime, stored);
  const definition = runtime.registry.get(record.agentType);
  if (definition === undefined || !isSubagent(definition)) {
    throw new ToolError(
      `Subagent ${record.taskId} cannot be continued: its agent "${record.agentType}" is no longer defined as a subagent. Start a new subagent instead.`,
    );
  }
  const path =
    record.agentPath && record.agentPath.length > 0
      ? [...record.agentPath]
      : [...ctx.agent.path, `${definition.name}-${runtime.nextNumber(definition.name)}`];
  const number = Number(/-(\d+)$/.exec(path.at(-1) ?? "")?.[1]);
  if (Number.isSafeInteger(number)) runtime.noteNumber(definition.name, number);
  const child = await buildChild(
    runtime,
    caller,
    {
      definition,
      model: storedModel(runtime, caller, record),
      taskId: record.taskId,
      description: record.description,
      path,
      depth: ctx.agent.depth + 1,
      parentWorkspace: ctx.workspace,
      parentSessionId: record.parentSessionId,
      parentAgentId: record.parentAgentId,
      background: record.background,
    },
    async () => {
      try {
        return await Session.resume(runtime.sessionsWorkspace, record.childSessionId);
      } catch (error) {
        if (error instanceof SessionBusyError)
          throw new ToolError(
            `Subagent ${record.taskId} cannot be continued from here: ${error.message} Wait for it with task_wait, or start a new subagent.`,
          );
        if (error instanceof TranscriptFormatError)
          throw new ToolError(
            `Subagent ${record.taskId} cannot be continued: its transcript is damaged (${error.message}). Start a new subagent instead.`,
          );
        if (!(error instanceof SessionNotFoundError)) throw error;
        throw new ToolError(
          `Subagent ${record.taskId} cannot be continued: its transcript ${record.childSessionId} is gone. Start a new subagent instead.`,
        );
      }
    },
  );
  runtime.remember(child);
  return child;
}

/** A record another (dead) process left running is swept first; one still alive elsewhere is refused. */
async function settledRecord(runtime: SubagentRuntime, stored: TaskRecord): Promise<TaskRecord> {
  if (isFinished(stored.status)) return stored;
  await runtime.sweepNow();
  const fresh = (await runtime.store.get(stored.taskId)) ?? stored;
  if (isFinished(fresh.status)) return fresh;
  throw new ToolError(
    `Subagent ${fresh.taskId} is ${fresh.status} in another process (${fresh.owner}) and cannot be continued from here until it finishes. Wait for it with task_wait, or stop it with task_cancel.`,
  );
}

/** The model it ran on: the caller's when they are the same, else built again from the stored id. */
function storedModel(runtime: SubagentRuntime, caller: CallerScope, record: TaskRecord): Model {
  if (record.model === undefined || record.model === caller.model.id) return caller.model;
  try {
    return runtime.createModel(record.model);
  } catch (error) {
    throw new ToolError(
      `Subagent ${record.taskId} cannot be continued: its model "${record.model}" is not available (${error instanceof Error ? error.message : String(error)}).`,
    );
  }
}
