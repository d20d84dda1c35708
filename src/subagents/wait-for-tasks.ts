import { isFinished, type TaskRecord } from "../tasks/task-record.ts";
import type { SubagentRuntime } from "./subagent-runtime.ts";

export type WaitMode = "any" | "all";

export interface WaitOutcome {
  /** The tasks as last read, in the order asked for (unknown ids left out). */
  records: TaskRecord[];
  /** The condition did not hold when the time ran out (or the caller was aborted). */
  timedOut: boolean;
}

/**
 * Waits until any (or all) of `taskIds` finished, for at most `timeoutMs`. Wakes at once when a child
 * of this process settles and polls the store for the others (tasks another process runs); when one of
 * those stays unfinished the orphan sweeper runs now and then, so a dead owner cannot hang the wait.
 */
export async function waitForTasks(
  runtime: SubagentRuntime,
  taskIds: readonly string[],
  mode: WaitMode,
  timeoutMs: number,
  signal: AbortSignal,
  onChange?: (records: TaskRecord[]) => void,
): Promise<WaitOutcome> {
  const deadline = Date.now() + timeoutMs;
  let lastSweep = Date.now();
  let lastFinished = -1;
  while (true) {
    const seen = runtime.settled.generation;
    const records = (await Promise.all(taskIds.map((id) => runtime.store.get(id)))).filter(
      (record): record is TaskRecord => record !== undefined,
    );
    const finished = records.filter((record) => settled(runtime, record)).length;
    const done = mode === "any" ? finished > 0 : finished === records.length;
    if (done) return { records, timedOut: false };
    if (finished !== lastFinished) onChange?.(records);
    lastFinished = finished;
    const left = deadline - Date.now();
    if (left <= 0 || signal.aborted) return { records, timedOut: true };
    const elsewhere = records.some(
      (record) => !isFinished(record.status) && !runtime.child(record.taskId)?.running,
    );
    if (elsewhere && Date.now() - lastSweep >= runtime.limits.orphanTimeoutMs / 2) {
      lastSweep = Date.now();
      await runtime.sweepNow();
    }
    await runtime.settled.wait(signal, Math.min(left, runtime.limits.cancelPollMs), seen);
  }
}

/**
 * Finished as far as this process knows. A record FAILED `orphaned` whose child still runs here is
 * not: another process judged it without seeing this one, and the child records its real end.
 */
export function settled(runtime: SubagentRuntime, record: TaskRecord): boolean {
  return isFinished(record.status) && !runtime.child(record.taskId)?.running;
}

/**
 * The results of children of `parentSessionId` that finished here but whose record the store refused
 * (see `ChildExecution.unrecorded`), each handed out once: a parent that waited for a child always
 * hears how it ended, and never ends its run on "waiting for my subagents".
 */
export function takeUnrecorded(runtime: SubagentRuntime, parentSessionId: string): TaskRecord[] {
  const taken: TaskRecord[] = [];
  for (const child of runtime.localChildren(parentSessionId)) {
    const execution = child.running ? undefined : child.execution;
    if (execution?.unrecorded === undefined) continue;
    taken.push(execution.unrecorded);
    execution.unrecorded = undefined;
  }
  return taken;
}

/** A tool's `timeout_s`, defaulted and clamped to 1–3600 seconds, in milliseconds. */
export function clampTimeout(seconds: number | undefined, fallbackSeconds = 30): number {
  const value = seconds === undefined || !Number.isFinite(seconds) ? fallbackSeconds : seconds;
  return Math.min(3600, Math.max(1, value)) * 1000;
}
