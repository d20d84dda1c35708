import { setTimeout as sleep } from "node:timers/promises";
import { userText } from "../../model/messages.ts";
import { isFinished } from "../../tasks/task-record.ts";
import { type ToolContext, ToolError, type ToolResult } from "../../tools/tool.ts";
import type { Child } from "../child/child.ts";
import { progressOf } from "../report/task-view.ts";
import { ownChild, ownTask, refuseAtDepthLimit, type TaskLookup } from "../spawn/own-child.ts";
import { continueChild, runTask } from "../spawn/spawn-child.ts";
import type { SpawnDeps } from "../spawn/spawn-deps.ts";
import { spawnableAgents } from "../spawn/spawnable-agents.ts";
import type { CallerScope } from "./caller-scope.ts";
import type { CancelReport, SendRequest, TaskApi } from "./task-api.ts";
import { type WaitDeps, waitForTasks } from "./wait-for-tasks.ts";

/** How long task_cancel waits for the cancelled children to record their end. */
const CONFIRM_MS = 5_000;

export interface TreeTaskApiDeps {
  spawn: SpawnDeps;
  wait: WaitDeps;
  maxDepth: number;
  /** Stops a child of this process and its descendants; returns those that were working here. */
  cancel: (taskId: string, reason: string) => Child[];
}

/** The `TaskApi` of one tree: each method hands the few parts it uses to the function doing the work. */
export function treeTaskApi(deps: TreeTaskApiDeps): TaskApi {
  const { spawn, wait } = deps;
  const lookup: TaskLookup = { store: spawn.records.store, tree: spawn.tree };
  const checkDepth = (ctx: ToolContext) => refuseAtDepthLimit(deps.maxDepth, ctx);
  return {
    checkDepth,
    spawnable: (rules) => spawnableAgents(spawn.registry, rules),
    task: (caller, request, ctx) => {
      checkDepth(ctx);
      return spawn.tree.trackCall(ctx.agent.sessionId, runTask(spawn, caller, request, ctx));
    },
    send: (caller, request, ctx) => {
      checkDepth(ctx);
      return sendToChild(spawn, caller, request, ctx);
    },
    own: (taskId, ctx, verb) => ownTask(lookup, taskId, ctx, verb),
    list: (ctx, status) =>
      lookup.store.list({
        parentSessionId: ctx.agent.sessionId,
        parentAgentId: ctx.agent.path.at(-1) ?? "main",
        ...(status === undefined ? {} : { status }),
        onUnreadable: (error) => spawn.records.warn(error.message),
      }),
    wait: (request, signal) => waitForTasks(wait, request, signal),
    progress: (taskId) => progressOf(spawn.tree, taskId),
    markDelivered: async (taskIds) => {
      if (taskIds.length > 0) await lookup.store.markDelivered(taskIds).catch(() => []);
    },
    cancel: async (record): Promise<CancelReport> => {
      if (isFinished(record.status)) return { kind: "finished", record };
      const cancelled = deps.cancel(record.taskId, "cancelled by its parent (task_cancel)");
      if (cancelled.length === 0) {
        // It runs in another process: its owner polls the flag and stops it.
        return { kind: "requested", record: await lookup.store.requestCancel(record.taskId) };
      }
      await Promise.race([Promise.allSettled(cancelled.map((child) => child.settled())), sleep(CONFIRM_MS)]);
      // The parent learns the outcome here; no notification repeats it.
      await lookup.store.markDelivered([record.taskId]).catch(() => []);
      return {
        kind: "cancelled",
        record: await lookup.store.get(record.taskId),
        cancelled: cancelled.map((child) => child.taskId),
      };
    },
  };
}

/** `task_send`: a message into a working child's next turn, or a child that stopped continued with it. */
async function sendToChild(
  deps: SpawnDeps,
  caller: CallerScope,
  request: SendRequest,
  ctx: ToolContext,
): Promise<ToolResult> {
  const child = await ownChild(deps, caller, request.taskId, ctx, "message");
  if (child.send(userText(request.message))) {
    if (request.interrupt && child.state.status === "running") child.interrupt();
    const when = request.interrupt
      ? "its current step was interrupted and it turns to your message now"
      : "it reads your message at its next turn";
    return {
      content: `Queued for ${child.definition.name} (task_id ${child.taskId}): ${when}. Its answer comes with its result${child.background ? ", as a <task-notification> when it finishes" : ""}.`,
      details: { taskId: child.taskId, queued: true, interrupted: request.interrupt },
    };
  }
  // Ending right now: let it record its outcome, then continue it like a finished child.
  await child.settled();
  if (child.active) {
    throw new ToolError(
      `Subagent ${child.taskId} was continued by another call meanwhile; send the message again.`,
    );
  }
  return continueChild(deps, child, request.message, child.description, undefined, ctx);
}
