import { Session, SessionNotFoundError } from "../../agent/session/session.ts";
import { SessionBusyError } from "../../agent/session/session-lock.ts";
import { TranscriptFormatError } from "../../agent/session/transcript.ts";
import { isSubagent } from "../../agents/definition.ts";
import type { Model } from "../../model/model.ts";
import { isFinished, type TaskRecord } from "../../tasks/task-record.ts";
import { errorMessage } from "../../text/error-message.ts";
import { type ToolContext, ToolError } from "../../tools/tool.ts";
import { Child } from "../child/child.ts";
import { type ChildSetup, childKind } from "../child/child-config.ts";
import { type OpenedChild, placeChild } from "../run/child-placement.ts";
import type { CallerScope } from "../tree/caller-scope.ts";
import type { SpawnDeps } from "./spawn-deps.ts";

/**
 * Rebuilds a finished child that is not in memory (it ran in an earlier process) from its TaskRecord
 * and its transcript: the same definition, model, path and depth, the caller's rules and tools as they
 * are now, and its whole history — or, for a remote agent, its conversation there (the record's
 * `ref`). It joins the tree idle. Concurrent calls for one id share one rebuild.
 */
export function restoreChild(
  deps: SpawnDeps,
  caller: CallerScope,
  stored: TaskRecord,
  ctx: ToolContext,
): Promise<Child> {
  return deps.tree.restoreOnce(stored.taskId, () => rebuild(deps, caller, stored, ctx));
}

async function rebuild(
  deps: SpawnDeps,
  caller: CallerScope,
  stored: TaskRecord,
  ctx: ToolContext,
): Promise<Child> {
  const record = await settledRecord(deps, stored);
  const definition = deps.registry.get(record.agentType);
  if (definition === undefined || !isSubagent(definition)) {
    throw new ToolError(
      `Subagent ${record.taskId} cannot be continued: its agent "${record.agentType}" is no longer defined as a subagent. Start a new subagent instead.`,
    );
  }
  const agentPath =
    record.agentPath && record.agentPath.length > 0
      ? [...record.agentPath]
      : [...ctx.agent.path, deps.tree.nextName(definition.name)];
  deps.tree.noteName(definition.name, agentPath.at(-1) ?? "");
  const { identity, executor } = await placeRecorded(deps, caller, record, {
    definition,
    path: agentPath,
    depth: ctx.agent.depth + 1,
    parentWorkspace: ctx.workspace,
  });
  return Child.restored(identity, executor, deps.records, record.background);
}

/**
 * A child known from its record, described and placed again (`placeChild`): the model it ran on, its
 * transcript resumed, where its last activation ran (`ref`) — to be followed there when `follow`.
 */
export function placeRecorded(
  deps: SpawnDeps,
  caller: CallerScope,
  record: TaskRecord,
  where: Pick<ChildSetup, "definition" | "path" | "depth" | "parentWorkspace">,
  follow?: true,
): Promise<OpenedChild> {
  const model = childKind(where.definition) === "loop" ? storedModel(deps, caller, record) : undefined;
  return placeChild(
    deps,
    caller,
    {
      ...where,
      ...(model === undefined ? {} : { model }),
      taskId: record.taskId,
      sessionId: record.childSessionId,
      parentSessionId: record.parentSessionId,
    },
    {
      description: record.description,
      parentAgentId: record.parentAgentId,
      session: () => resumeSession(deps, record),
      ...(record.ref === undefined ? {} : { ref: record.ref }),
      ...(follow === undefined ? {} : { follow }),
    },
  );
}

/** Its transcript, resumed; a transcript another process holds, damaged or gone is refused, saying so. */
async function resumeSession(deps: SpawnDeps, record: TaskRecord): Promise<Session> {
  try {
    return await Session.resume(deps.sessionsWorkspace, record.childSessionId);
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
}

/** A record another (dead) process left running is swept first; one still alive elsewhere is refused. */
async function settledRecord(deps: SpawnDeps, stored: TaskRecord): Promise<TaskRecord> {
  if (isFinished(stored.status)) return stored;
  await deps.sweep();
  const fresh = (await deps.records.store.get(stored.taskId)) ?? stored;
  if (isFinished(fresh.status)) return fresh;
  throw new ToolError(
    `Subagent ${fresh.taskId} is ${fresh.status} in another process (${fresh.owner}) and cannot be continued from here until it finishes. Wait for it with task_wait, or stop it with task_cancel.`,
  );
}

/** The model a child ran on: the caller's when they are the same, else built again from the stored id. */
function storedModel(deps: SpawnDeps, caller: CallerScope, record: TaskRecord): Model {
  if (record.model === undefined || record.model === caller.model.id) return caller.model;
  try {
    return deps.createModel(record.model);
  } catch (error) {
    throw new ToolError(
      `Subagent ${record.taskId} cannot be continued: its model "${record.model}" is not available (${errorMessage(error)}).`,
    );
  }
}
