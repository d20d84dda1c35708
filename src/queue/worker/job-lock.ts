import type { Hooks } from "../../agent/hooks.ts";

/**
 * Whether this worker still holds a job's BullMQ lock, known without asking Redis. The lock lasts
 * `lockMs` from the moment its last renewal was sent (or the job was taken), so once that moment has
 * passed unrenewed — the process was paused, starved, cut off — or a renewal was refused, another
 * worker may hold the job, and the child here must stop before it does anything more: no model call,
 * no tool, no event. Checked by a timer, which fires first when a paused process resumes, and before
 * each model call and tool call (`lockHooks`).
 */
export class JobLock {
  private until: number;
  private readonly lockMs: number;
  private readonly lost = new AbortController();
  private timer: NodeJS.Timeout | undefined;

  /** `takenAt`: when the job was taken (its lock set), by this machine's clock, at the latest. */
  constructor(takenAt: number, lockMs: number) {
    this.lockMs = lockMs;
    this.until = takenAt + lockMs;
    this.arm();
  }

  /** Aborts when the lock is lost; its reason says so. */
  get signal(): AbortSignal {
    return this.lost.signal;
  }

  /** Whether the lock still holds; past its time, it is lost from now on. */
  held(): boolean {
    if (!this.lost.signal.aborted && Date.now() >= this.until)
      this.lose(`its worker did not renew the job's lock within ${this.lockMs} ms`);
    return !this.lost.signal.aborted;
  }

  /** A renewal sent at `sentAt` was accepted: the lock lasts `lockMs` from then. */
  renewed(sentAt: number): void {
    if (this.lost.signal.aborted) return;
    this.until = Math.max(this.until, sentAt + this.lockMs);
    this.arm();
  }

  /** Another worker may hold the job now (a renewal was refused, or the lock's time passed). */
  lose(why: string): void {
    clearTimeout(this.timer);
    if (!this.lost.signal.aborted)
      this.lost.abort(`${why}: it may run on another worker now, so it stopped here`);
  }

  dispose(): void {
    clearTimeout(this.timer);
  }

  private arm(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.held(), Math.max(0, this.until - Date.now()));
    this.timer.unref();
  }
}

/** The child's loop asks the lock before each model call and each tool: none once it is lost. */
export function lockHooks(lock: JobLock): Hooks {
  return {
    beforeModelCall: () => {
      lock.held(); // A lost lock aborts the activation's signal: the call is not made.
      return undefined;
    },
    beforeToolCall: () =>
      lock.held() ? undefined : { action: "deny", reason: String(lock.signal.reason ?? "its lock was lost") },
  };
}
