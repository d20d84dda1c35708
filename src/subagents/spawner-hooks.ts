import type { Hooks } from "../agent/hooks.ts";
import { FINISHED_STATUSES, type TaskRecord } from "../tasks/task-record.ts";
import type { AgentIdentity } from "../tools/tool.ts";
import type { CallerScope } from "./caller-scope.ts";
import { spawnerSection } from "./spawner-section.ts";
import type { SubagentRuntime } from "./subagent-runtime.ts";
import { notificationMessage } from "./task-view.ts";
import { takeUnrecorded } from "./wait-for-tasks.ts";

/** How long an agent that ends its turn waits for its aborted children to record their end. */
const ABORT_GRACE_MS = 5_000;

/**
 * The hooks of an agent that may spawn. Before each model call: remember its transcript (for `fork`),
 * deliver the notifications of children that finished since (once each, via `deliveredAt`), and add
 * the roster and its latest tasks to the system prompt. When it ends its turn while children it
 * started still run: wait for them, then hand it their notifications so it takes another turn.
 */
export function spawnerHooks(runtime: SubagentRuntime, caller: CallerScope): Hooks {
  return {
    async beforeModelCall({ agent, messages }) {
      runtime.trackTranscript(agent.sessionId, messages);
      if (agent.depth === 0) await runtime.sweepOnce();
      const delivered = await takeNotifications(runtime, agent);
      const recent = await recentTasks(runtime, agent);
      return {
        systemSections: [spawnerSection(runtime, caller, recent)],
        ...(delivered.length > 0 ? { inject: [notificationMessage(delivered)] } : {}),
      };
    },
    async onTurnEnd({ agent, toolCallsMade, signal }) {
      if (toolCallsMade) return undefined;
      // An interactive root goes back to its prompt; notifications wait for its next model call.
      if (agent.depth === 0 && !runtime.waitForChildren) return undefined;
      let delivered: TaskRecord[];
      while (true) {
        // Checked before reading the store: a child that is not running has written its record.
        const running = runtime.hasRunningChildren(agent.sessionId);
        const seen = runtime.settled.generation;
        delivered = await takeNotifications(runtime, agent);
        if (delivered.length > 0 || !running) break;
        if (signal.aborted) {
          // The children abort with this agent; let them write their records first.
          await settleChildren(runtime, agent.sessionId);
          delivered = await takeNotifications(runtime, agent);
          break;
        }
        await runtime.settled.wait(signal, 60_000, seen);
      }
      return delivered.length > 0 ? { inject: [notificationMessage(delivered)] } : undefined;
    },
    async onRunEnd({ agent, signal }) {
      // Aborted mid-call (Ctrl-C, a budget, the stall watchdog): the children stop with it, and the
      // run ends only once they recorded their end, so no record is left RUNNING behind it.
      if (signal.aborted) await settleChildren(runtime, agent.sessionId);
    },
  };
}

/**
 * Claims the finished, undelivered tasks of `agent` and returns them, oldest first. `markDelivered`
 * returns only what this call set, so a completion is delivered once even if two callers race.
 */
export async function takeNotifications(
  runtime: SubagentRuntime,
  agent: AgentIdentity,
): Promise<TaskRecord[]> {
  try {
    const finished = await runtime.store.list({
      parentSessionId: agent.sessionId,
      parentAgentId: agent.path.at(-1) ?? "main",
      status: FINISHED_STATUSES,
      onUnreadable: (error) => runtime.warn(error.message),
    });
    // A child still running here was judged orphaned by a process that could not see this one: the
    // verdict is wrong, and the child records its real end when it finishes.
    const pending = finished.filter(
      (record) => record.deliveredAt === undefined && !runtime.child(record.taskId)?.running,
    );
    const claimed =
      pending.length === 0 ? [] : await runtime.store.markDelivered(pending.map((r) => r.taskId));
    return [...claimed, ...takeUnrecorded(runtime, agent.sessionId)].sort(
      (a, b) => Date.parse(a.updatedAt) - Date.parse(b.updatedAt),
    );
  } catch (error) {
    // A store problem must not end the parent's run; the notification comes at a later call.
    runtime.warn(
      `could not deliver task notifications: ${error instanceof Error ? error.message : String(error)}`,
    );
    return [];
  }
}

async function recentTasks(runtime: SubagentRuntime, agent: AgentIdentity): Promise<TaskRecord[]> {
  try {
    return await runtime.store.list({
      parentSessionId: agent.sessionId,
      parentAgentId: agent.path.at(-1) ?? "main",
      limit: 10,
      onUnreadable: () => {},
    });
  } catch {
    return [];
  }
}

/**
 * Waits (at most `ABORT_GRACE_MS`) for the aborted children of `sessionId` to record their end: first
 * the `task` calls still starting one, then every child running here.
 */
async function settleChildren(runtime: SubagentRuntime, sessionId: string): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const grace = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ABORT_GRACE_MS);
  });
  const settle = async () => {
    await Promise.allSettled(runtime.callsOf(sessionId));
    const running = runtime.localChildren(sessionId).filter((child) => child.running);
    await Promise.allSettled(running.map((child) => child.execution?.done));
  };
  await Promise.race([settle(), grace]);
  clearTimeout(timer);
}
