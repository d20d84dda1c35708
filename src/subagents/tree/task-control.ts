import { startHeartbeat } from "../../tasks/heartbeat.ts";
import type { TaskMessage } from "../../tasks/task-record.ts";
import type { TaskStore } from "../../tasks/task-store.ts";
import { errorMessage } from "../../text/error-message.ts";
import type { SubagentLimits } from "./limits.ts";

export interface TaskControlOptions {
  store: TaskStore;
  /** This process, as written into the records it runs. */
  owner: string;
  limits: Pick<SubagentLimits, "heartbeatMs" | "cancelPollMs" | "orphanTimeoutMs">;
  /** Called once per task when another process set its `cancelRequested`. */
  onCancelRequested(taskId: string): void;
  /**
   * Messages another process put in a task's inbox (`TaskStore.sendMessage`), oldest first, each
   * offered until taken: returns the ids delivered to the child, which are then taken out of the inbox.
   */
  onMessages?(taskId: string, messages: readonly TaskMessage[]): string[];
  /** The periodic orphan sweep (of every owner's tasks in the store). */
  sweep?: () => Promise<void>;
  warn(message: string): void;
}

/**
 * The owner's side of cross-process control, running only while this process has active tasks: it
 * heartbeats their records (`updatedAt`), polls them for `cancelRequested` (set by `agentry tasks
 * cancel`; at once when the store can `watch`) and for messages in their inbox, takes back a task another process wrongly judged orphaned, and now and then sweeps the
 * store for orphans. Timers never keep the process alive.
 */
export class TaskControl {
  private readonly options: TaskControlOptions;
  private readonly active = new Set<string>();
  private readonly cancelSeen = new Set<string>();
  /** Ids of inbox messages delivered, per task, until they are out of its record. */
  private readonly delivered = new Map<string, Set<string>>();
  private stopHeartbeat: (() => Promise<void>) | undefined;
  private timer: NodeJS.Timeout | undefined;
  private unwatch: (() => void) | undefined;
  private polling = false;
  /** A change was heard during a poll: poll again after it. */
  private again = false;
  private lastSweep = Date.now();

  constructor(options: TaskControlOptions) {
    this.options = options;
  }

  /** The tasks this process runs (PENDING or RUNNING) right now. */
  get activeIds(): string[] {
    return [...this.active];
  }

  track(taskId: string): void {
    this.active.add(taskId);
    this.start();
  }

  untrack(taskId: string): void {
    this.active.delete(taskId);
    this.cancelSeen.delete(taskId);
    this.delivered.delete(taskId);
    if (this.active.size === 0) void this.stop();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    this.unwatch?.();
    this.unwatch = undefined;
    const stopHeartbeat = this.stopHeartbeat;
    this.stopHeartbeat = undefined;
    await stopHeartbeat?.();
  }

  private start(): void {
    if (this.timer) return;
    const { store, limits, warn } = this.options;
    this.stopHeartbeat = startHeartbeat(
      store,
      () => this.activeIds,
      limits.heartbeatMs,
      (error) => warn(`task heartbeat failed: ${errorMessage(error)}`),
    );
    this.timer = setInterval(() => void this.tick(), limits.cancelPollMs);
    this.timer.unref();
    // A store that pushes changes (Redis) is heard at once; the poll stays, should a notice be lost.
    this.unwatch = store.watch?.((change) => {
      if (change.kind === "resync" || change.taskIds.some((id) => this.active.has(id))) void this.tick();
    });
  }

  /**
   * A task of ours that another process judged orphaned while this one was paused or out of its
   * sight (another pid namespace): it runs, so its record says so again.
   */
  private async reclaim(taskId: string): Promise<void> {
    const { store, owner } = this.options;
    await store.update(
      taskId,
      (current) =>
        current.reason === "orphaned" && current.owner === owner && this.active.has(taskId)
          ? { status: "RUNNING" }
          : {},
      { reclaim: true },
    );
  }

  /** Offers the child the messages it has not had, then takes those it took out of its record. */
  private async deliver(taskId: string, inbox: readonly TaskMessage[]): Promise<void> {
    const { store, onMessages } = this.options;
    if (onMessages === undefined) return;
    const delivered = this.delivered.get(taskId) ?? new Set<string>();
    this.delivered.set(taskId, delivered);
    const fresh = inbox.filter((message) => !delivered.has(message.id));
    if (fresh.length > 0) for (const id of onMessages(taskId, fresh)) delivered.add(id);
    if (!inbox.some((message) => delivered.has(message.id))) return;
    await store.update(taskId, (current) => ({
      inbox: (current.inbox ?? []).filter((message) => !delivered.has(message.id)),
    }));
  }

  private async tick(): Promise<void> {
    if (this.polling) {
      this.again = true;
      return;
    }
    this.polling = true;
    this.again = false;
    try {
      for (const taskId of this.activeIds) {
        if (this.cancelSeen.has(taskId)) continue;
        const record = await this.options.store.get(taskId);
        if (record?.reason === "orphaned" && record.owner === this.options.owner && this.active.has(taskId))
          await this.reclaim(taskId);
        if (record?.cancelRequested && this.active.has(taskId)) {
          this.cancelSeen.add(taskId);
          this.options.onCancelRequested(taskId);
          continue;
        }
        if (record?.inbox !== undefined && record.inbox.length > 0 && this.active.has(taskId))
          await this.deliver(taskId, record.inbox);
      }
      const { sweep, limits } = this.options;
      if (sweep && Date.now() - this.lastSweep >= limits.orphanTimeoutMs / 2) {
        this.lastSweep = Date.now();
        await sweep();
      }
    } catch (error) {
      this.options.warn(`task cancel poll failed: ${errorMessage(error)}`);
    } finally {
      this.polling = false;
    }
    if (this.again) await this.tick();
  }
}
