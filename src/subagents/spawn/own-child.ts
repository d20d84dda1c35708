import { isAgentryError } from "../../errors/agentry-error.ts";
import type { TaskRecord } from "../../tasks/task-record.ts";
import type { TaskStore } from "../../tasks/task-store.ts";
import { type ToolContext, ToolError } from "../../tools/tool.ts";
import type { Child } from "../child/child.ts";
import type { CallerScope } from "../tree/caller-scope.ts";
import type { ChildTree } from "../tree/child-tree.ts";
import { restoreChild } from "./restore-child.ts";
import type { SpawnDeps } from "./spawn-deps.ts";

/** Where the caller's tasks are looked up: the store, and the tree for children of this process. */
export interface TaskLookup {
  store: TaskStore;
  tree: ChildTree;
}

/**
 * The spawn tools are hidden at the depth limit; this refuses a call that reached one anyway (a tool
 * list built by hand, a forged call).
 */
export function refuseAtDepthLimit(maxDepth: number, ctx: ToolContext): void {
  if (ctx.agent.depth < maxDepth) return;
  throw new ToolError(
    `Refused: agent ${ctx.agent.path.join("/")} is at depth ${ctx.agent.depth} and subagents may nest only ${maxDepth} level(s) deep (maxDepth), so it cannot start subagents. Do the work yourself.`,
  );
}

/**
 * The stored record of a task the calling agent started. Throws a `ToolError` the model can act on
 * for an unknown id or another agent's task.
 */
export async function ownTask(
  lookup: TaskLookup,
  taskId: string,
  ctx: ToolContext,
  verb: string,
): Promise<TaskRecord> {
  let stored: TaskRecord | undefined;
  try {
    stored = await lookup.store.get(taskId);
  } catch (error) {
    if (!isAgentryError(error)) throw error;
    throw new ToolError(`Cannot read task_id "${taskId}": ${error.message} ${await knownTasks(lookup, ctx)}`);
  }
  if (stored === undefined) {
    const hint = verb === "continue" ? " Omit task_id to start a new subagent." : "";
    throw new ToolError(
      `Unknown task_id "${taskId}": no subagent with that id exists. ${await knownTasks(lookup, ctx)}${hint}`,
    );
  }
  if (stored.parentSessionId !== ctx.agent.sessionId) {
    throw new ToolError(
      `task_id "${taskId}" belongs to another agent's subagent; only its parent can ${verb} it. ${await knownTasks(lookup, ctx)}`,
    );
  }
  return stored;
}

/**
 * The child the calling agent started, ready to work again: the one in memory, or — after a restart
 * or from an earlier run — rebuilt from its TaskRecord and transcript.
 */
export async function ownChild(
  deps: SpawnDeps,
  caller: CallerScope,
  taskId: string,
  ctx: ToolContext,
  verb: string,
): Promise<Child> {
  const lookup: TaskLookup = { store: deps.records.store, tree: deps.tree };
  const local = deps.tree.get(taskId);
  if (local !== undefined) {
    if (local.parentSessionId === ctx.agent.sessionId) return local;
    throw new ToolError(
      `task_id "${taskId}" belongs to another agent's subagent; only its parent can ${verb} it. ${await knownTasks(lookup, ctx)}`,
    );
  }
  const stored = await ownTask(lookup, taskId, ctx, verb);
  return restoreChild(deps, caller, stored, ctx);
}

/** "Your task_ids: a, b." — for error messages. */
export async function knownTasks(lookup: TaskLookup, ctx: ToolContext): Promise<string> {
  const ids = await lookup.store
    .list({
      parentSessionId: ctx.agent.sessionId,
      parentAgentId: ctx.agent.path.at(-1) ?? "main",
      limit: 20,
      onUnreadable: () => {},
    })
    .then((records) => records.map((record) => record.taskId))
    .catch(() => lookup.tree.childrenOf(ctx.agent.sessionId).map((child) => child.taskId));
  return ids.length > 0 ? `Your task_ids: ${ids.join(", ")}.` : "You have started no subagents yet.";
}
