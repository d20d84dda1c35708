import { identityLabel } from "../state/process-identity.ts";
import { type OwnerLiveness, ownerLiveness } from "./owner.ts";
import type { TaskFileError } from "./task-errors.ts";
import type { TaskPatch, TaskRecord } from "./task-record.ts";
import type { TaskStore } from "./task-store.ts";

export { startHeartbeat } from "./heartbeat.ts";

export interface SweepOptions {
  /** A PENDING/RUNNING task whose `updatedAt` is older than this is orphaned, unless its owner is proven alive. */
  staleAfterMs: number;
  now?: Date;
  /** How to tell whether an owner lives (default: `ownerLiveness`). */
  liveness?: (owner: string) => OwnerLiveness;
}

export interface SweepReport {
  /** The records this sweep marked FAILED / orphaned, as stored afterwards. */
  orphaned: TaskRecord[];
  /** Files that could not be read; their records were not swept. */
  unreadable: TaskFileError[];
}

/**
 * Marks as FAILED (`reason: "orphaned"`) every PENDING/RUNNING task whose owner process is provably
 * gone (`ownerLiveness` says `dead`: same machine and namespace, and no process with that pid and
 * start time), or, when its liveness cannot be checked from here (another host or pid namespace), has
 * been silent longer than `staleAfterMs`. An owner proven alive keeps its tasks however long it was
 * silent (Ctrl-Z). Each record is re-checked inside its update, so a task that finished or beat in
 * the meantime is left alone.
 */
export async function sweepOrphans(store: TaskStore, options: SweepOptions): Promise<SweepReport> {
  const unreadable: TaskFileError[] = [];
  const active = await store.list({
    status: ["PENDING", "RUNNING"],
    onUnreadable: (error) => unreadable.push(error),
  });
  return { orphaned: await failOrphans(store, active, options), unreadable };
}

/**
 * The sweep of records the caller has just listed (`agentry tasks list` reads them all anyway):
 * fails the orphans among them, as `sweepOrphans` does, and returns them as stored afterwards.
 * Finished records cost one status test each.
 */
export async function failOrphans(
  store: TaskStore,
  records: Iterable<TaskRecord>,
  options: SweepOptions,
): Promise<TaskRecord[]> {
  const now = (options.now ?? new Date()).getTime();
  const liveness = options.liveness ?? ((owner: string) => ownerLiveness(owner));
  const orphaned: TaskRecord[] = [];
  for (const candidate of records) {
    if (!diagnose(candidate, now, options.staleAfterMs, liveness)) continue;
    let marked = false;
    const after = await store.update(candidate.taskId, (current): TaskPatch => {
      const why = diagnose(current, now, options.staleAfterMs, liveness);
      marked = why !== undefined;
      return why ? { status: "FAILED", reason: "orphaned", error: orphanMessage(current, why) } : {};
    });
    if (marked) orphaned.push(after);
  }
  return orphaned;
}

function diagnose(
  record: TaskRecord,
  now: number,
  staleAfterMs: number,
  liveness: (owner: string) => OwnerLiveness,
): string | undefined {
  if (record.status !== "PENDING" && record.status !== "RUNNING") return undefined;
  const owner = liveness(record.owner);
  if (owner === "dead") return `its owner process ${identityLabel(record.owner)} is gone`;
  // Proven alive (same machine, namespace, pid and start time): it holds the task, however long it
  // was silent — stopped with Ctrl-Z, or a laptop asleep. Its own stall watchdog covers a hung child.
  if (owner === "alive") return undefined;
  const silentMs = now - Date.parse(record.updatedAt);
  if (silentMs > staleAfterMs) {
    return `its owner ${identityLabel(record.owner)} has sent no heartbeat for ${Math.round(silentMs / 1000)} s`;
  }
  return undefined;
}

function orphanMessage(record: TaskRecord, why: string): string {
  return (
    `Task ${record.taskId} (${record.agentType}: ${record.description}) was orphaned while ${record.status}: ` +
    `${why}. Its transcript is kept; continue it with task_id "${record.taskId}".`
  );
}
