import { isFinished, type TaskRecord } from "../../tasks/task-record.ts";
import type { TaskStore } from "../../tasks/task-store.ts";
import type { ChildTree } from "./child-tree.ts";
import type { SubagentLimits } from "./limits.ts";
import type { Pulse } from "./pulse.ts";
import type { WaitOutcome, WaitRequest } from "./task-api.ts";

/** What waiting for tasks takes from their tree. */
export interface WaitDeps {
  store: TaskStore;
  /** The children working in this process. */
  tree: ChildTree;
  /** Fired whenever a child of this process records its outcome. */
  settled: Pulse;
  /** Sweeps the store for orphans now. */
  sweep: () => Promise<void>;
  limits: Pick<SubagentLimits, "orphanTimeoutMs" | "cancelPollMs">;
}

/**
 * Waits until any (or all) of the tasks finished, for at most `timeoutMs`. Wakes at once when a child
 * of this process settles and polls the store for the others (tasks another process runs); when one of
 * those stays unfinished the orphan sweeper runs now and then, so a dead owner cannot hang the wait.
 */
export async function waitForTasks(
  deps: WaitDeps,
  request: WaitRequest,
  signal: AbortSignal,
): Promise<WaitOutcome> {
  const { taskIds, mode, timeoutMs, onChange } = request;
  const deadline = Date.now() + timeoutMs;
  let lastSweep = Date.now();
  let lastFinished = -1;
  while (true) {
    const seen = deps.settled.generation;
    const records = (await Promise.all(taskIds.map((id) => deps.store.get(id)))).filter(
      (record): record is TaskRecord => record !== undefined,
    );
    const finished = records.filter((record) => settled(deps.tree, record)).length;
    const done = mode === "any" ? finished > 0 : finished === records.length;
    if (done) return { records, timedOut: false };
    if (finished !== lastFinished) onChange?.(records);
    lastFinished = finished;
    const left = deadline - Date.now();
    if (left <= 0 || signal.aborted) return { records, timedOut: true };
    const elsewhere = records.some(
      (record) => !isFinished(record.status) && !deps.tree.get(record.taskId)?.active,
    );
    if (elsewhere && Date.now() - lastSweep >= deps.limits.orphanTimeoutMs / 2) {
      lastSweep = Date.now();
      await deps.sweep();
    }
    await deps.settled.wait(signal, Math.min(left, deps.limits.cancelPollMs), seen);
  }
}

/**
 * Finished as far as this process knows. A record FAILED `orphaned` whose child still works here is
 * not: another process judged it without seeing this one, and the child records its real end.
 */
export function settled(tree: ChildTree, record: TaskRecord): boolean {
  return isFinished(record.status) && !tree.get(record.taskId)?.active;
}

/**
 * The outcomes of children of `parentSessionId` that finished here but whose record the store refused
 * (see `Child.unrecorded`), each handed out once: a parent that waited for a child always hears how it
 * ended, and never ends its run on "waiting for my subagents".
 */
export function takeUnrecorded(tree: ChildTree, parentSessionId: string): TaskRecord[] {
  return tree.childrenOf(parentSessionId).flatMap((child) => {
    const record = child.takeUnrecorded();
    return record === undefined ? [] : [record];
  });
}

/** A tool's `timeout_s`, defaulted and clamped to 1–3600 seconds, in milliseconds. */
export function clampTimeout(seconds: number | undefined, fallbackSeconds = 30): number {
  const value = seconds === undefined || !Number.isFinite(seconds) ? fallbackSeconds : seconds;
  return Math.min(3600, Math.max(1, value)) * 1000;
}
