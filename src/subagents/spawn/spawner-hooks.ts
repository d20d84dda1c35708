import type { Hooks } from "../../agent/hooks.ts";
import { FINISHED_STATUSES, type TaskRecord } from "../../tasks/task-record.ts";
import type { TaskStore } from "../../tasks/task-store.ts";
import { errorMessage } from "../../text/error-message.ts";
import type { AgentIdentity } from "../../tools/tool.ts";
import { notificationMessage } from "../report/task-view.ts";
import type { ChildTree } from "../tree/child-tree.ts";
import type { Pulse } from "../tree/pulse.ts";
import { takeUnrecorded } from "../tree/wait-for-tasks.ts";

/** What the hooks of an agent that may spawn take from its tree. */
export interface SpawnerHookDeps {
  tree: ChildTree;
  store: TaskStore;
  /** Fired whenever a child of this process records its outcome. */
  settled: Pulse;
  /** Whether an agent ending its turn waits for its children (see `SubagentOptions`). */
  waitForChildren: boolean;
  /** The orphan sweep of a run's start (once per tree). */
  sweepOnce: () => Promise<void>;
  /** After the sweep: take up the remote children of a root session that outlived their process. */
  adoptOnce?: (sessionId: string) => Promise<void>;
  warn: (message: string) => void;
}

/** How long an agent that ends its turn waits for its aborted children to record their end. */
const ABORT_GRACE_MS = 5_000;

/** The spawn tools that act on children already started: nothing for them to do before one runs in the background. */
export const CONTROL_TOOLS: readonly string[] = [
  "task_send",
  "task_wait",
  "task_output",
  "task_cancel",
  "task_list",
];

/**
 * The hooks of an agent that may spawn. Before each model call: remember its transcript (for `fork`),
 * deliver the notifications of children that finished since (once each, via `deliveredAt`), and offer
 * the `task_*` control tools only once one of its children has run in the background (started so, or
 * moved there when a call outlasted its wait): a child that answered in its `task` call needs no
 * control, and `task` with its task_id continues it. Once offered they stay, so the tool list — the
 * start of the provider's prompt cache — changes at most once a session; the system prompt never does.
 * When it ends its turn while children it started still run: wait for them, then hand it their
 * notifications so it takes another turn.
 */
export function spawnerHooks(deps: SpawnerHookDeps): Hooks {
  const controlling = new Set<string>();
  return {
    async beforeModelCall({ agent, messages }) {
      deps.tree.trackTranscript(agent.sessionId, messages);
      if (agent.depth === 0) {
        await deps.sweepOnce();
        await deps.adoptOnce?.(agent.sessionId);
      }
      const delivered = await takeNotifications(deps, agent);
      if (!controlling.has(agent.sessionId) && (await hasBackgroundChild(deps, agent)))
        controlling.add(agent.sessionId);
      return {
        ...(controlling.has(agent.sessionId) ? {} : { hiddenTools: CONTROL_TOOLS }),
        ...(delivered.length > 0 ? { inject: [notificationMessage(delivered)] } : {}),
      };
    },
    async onTurnEnd({ agent, toolCallsMade, signal }) {
      if (toolCallsMade) return undefined;
      // An interactive root goes back to its prompt; notifications wait for its next model call.
      if (agent.depth === 0 && !deps.waitForChildren) return undefined;
      let delivered: TaskRecord[];
      while (true) {
        // Checked before reading the store: a child that is not running has written its record.
        const running = deps.tree.childrenOf(agent.sessionId).some((child) => child.active);
        const seen = deps.settled.generation;
        delivered = await takeNotifications(deps, agent);
        if (delivered.length > 0 || !running) break;
        if (signal.aborted) {
          // The children abort with this agent; let them write their records first.
          await settleChildren(deps.tree, agent.sessionId);
          delivered = await takeNotifications(deps, agent);
          break;
        }
        await deps.settled.wait(signal, 60_000, seen);
      }
      return delivered.length > 0 ? { inject: [notificationMessage(delivered)] } : undefined;
    },
    async onRunEnd({ agent, signal }) {
      // Aborted mid-call (Ctrl-C, a budget, the stall watchdog): the children stop with it, and the
      // run ends only once they recorded their end, so no record is left RUNNING behind it.
      if (signal.aborted) await settleChildren(deps.tree, agent.sessionId);
    },
  };
}

/**
 * Claims the finished, undelivered tasks of `agent` and returns them, oldest first. `markDelivered`
 * returns only what this call set, so a completion is delivered once even if two callers race.
 */
export async function takeNotifications(
  deps: Pick<SpawnerHookDeps, "store" | "tree" | "warn">,
  agent: AgentIdentity,
): Promise<TaskRecord[]> {
  try {
    const finished = await deps.store.list({
      parentSessionId: agent.sessionId,
      parentAgentId: agent.path.at(-1) ?? "main",
      status: FINISHED_STATUSES,
      onUnreadable: (error) => deps.warn(error.message),
    });
    // A child still working here was judged orphaned by a process that could not see this one: the
    // verdict is wrong, and the child records its real end when it finishes.
    const pending = finished.filter(
      (record) => record.deliveredAt === undefined && !deps.tree.get(record.taskId)?.active,
    );
    const claimed = pending.length === 0 ? [] : await deps.store.markDelivered(pending.map((r) => r.taskId));
    return [...claimed, ...takeUnrecorded(deps.tree, agent.sessionId)].sort(
      (a, b) => Date.parse(a.updatedAt) - Date.parse(b.updatedAt),
    );
  } catch (error) {
    // A store problem must not end the parent's run; the notification comes at a later call.
    deps.warn(`could not deliver task notifications: ${errorMessage(error)}`);
    return [];
  }
}

/**
 * Whether a child of `agent` runs or ran in the background: one of this process, or one whose record
 * says so (a resumed session's children of earlier runs). A store that cannot be read hides the
 * control tools; the model can still call them, they only go unadvertised.
 */
async function hasBackgroundChild(
  deps: Pick<SpawnerHookDeps, "store" | "tree">,
  agent: AgentIdentity,
): Promise<boolean> {
  if (deps.tree.childrenOf(agent.sessionId).some((child) => child.background)) return true;
  try {
    const records = await deps.store.list({
      parentSessionId: agent.sessionId,
      parentAgentId: agent.path.at(-1) ?? "main",
      onUnreadable: () => {},
    });
    return records.some((record) => record.background);
  } catch {
    return false;
  }
}

/**
 * Waits (at most `ABORT_GRACE_MS`) for the aborted children of `sessionId` to record their end: first
 * the `task` calls still starting one, then every child running here.
 */
async function settleChildren(tree: ChildTree, sessionId: string): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const grace = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ABORT_GRACE_MS);
  });
  const settle = async () => {
    await Promise.allSettled(tree.callsOf(sessionId));
    await Promise.allSettled(tree.childrenOf(sessionId).map((child) => child.settled()));
  };
  await Promise.race([settle(), grace]);
  clearTimeout(timer);
}
