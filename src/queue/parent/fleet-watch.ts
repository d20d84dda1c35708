import type { Redis } from "ioredis";
import { AgentryError } from "../../errors/agentry-error.ts";
import { formatDuration } from "../../text/format-duration.ts";
import { liveWorkers } from "../worker-roster.ts";

/** What a parent's fleet watches, and how long it waits for each. */
export interface FleetWatchOptions {
  commands: Redis;
  /** The server, as messages name it. */
  label: string;
  queue: string;
  /** The queue's roster of live workers (`worker-roster.ts`). */
  roster: string;
  /** How long Redis may be unreachable before the children end with an error. */
  lostAfterMs: number;
  /** How long the children wait with no worker left on the queue before they end with an error. */
  noWorkerTimeoutMs: number;
  /** How often the roster is read while children wait. */
  workerCheckMs: number;
  /** What the parent tells the user (on stderr: a line each). */
  warn: (message: string) => void;
  /** Called when Redis is reachable again after a loss (leases are renewed at once). */
  reconnected: () => void;
}

/** Why a parent stopped waiting for its queued children: Redis gone or emptied, no worker left. */
export class FleetWaitError extends AgentryError {
  override readonly name = "FleetWaitError";
  readonly kind = "system";
}

/** One followed job's view of the watch. */
export interface Watching {
  /** Rejects with what to tell the user when Redis stays lost, or no worker is left, too long. */
  readonly ended: Promise<never>;
  stop(): void;
}

interface Follower {
  fail(error: FleetWaitError): void;
  back(): void;
}

/**
 * Watches, for every queued child of a parent at once, what a child cannot see from its job: Redis
 * gone (the parent waits `lostAfterMs` for it — a restart that keeps its data is ridden out — and
 * says so once), and no worker left on the queue (said at once, with the command to start one; the
 * children end after `noWorkerTimeoutMs` unless one comes). A follower is told when Redis is back, so
 * it can check its job is still there.
 */
export class FleetWatch {
  private readonly options: FleetWatchOptions;
  private readonly followers = new Set<Follower>();
  private lostSince: number | undefined;
  private lostTimer: NodeJS.Timeout | undefined;
  private lostError: FleetWaitError | undefined;
  private noWorkerSince: number | undefined;
  private readonly workerTimer: NodeJS.Timeout;
  private counting = false;
  private closed = false;

  constructor(options: FleetWatchOptions) {
    this.options = options;
    options.commands.on("close", () => this.lost());
    options.commands.on("ready", () => this.reconnected());
    this.workerTimer = setInterval(() => void this.countWorkers(), options.workerCheckMs);
    this.workerTimer.unref();
  }

  /** Watches for one job until `stop`. */
  follow(back: () => void): Watching {
    let fail!: (error: FleetWaitError) => void;
    const ended = new Promise<never>((_, reject) => {
      fail = reject;
    });
    // Nobody may be listening yet when the watch ends it; the follower reads it when it races.
    ended.catch(() => {});
    const follower: Follower = { fail, back };
    if (this.lostError !== undefined) fail(this.lostError);
    this.followers.add(follower);
    return { ended, stop: () => this.followers.delete(follower) };
  }

  close(): void {
    this.closed = true;
    clearInterval(this.workerTimer);
    clearTimeout(this.lostTimer);
  }

  private lost(): void {
    if (this.closed || this.lostSince !== undefined || this.lostError !== undefined) return;
    this.lostSince = Date.now();
    const { label, lostAfterMs } = this.options;
    if (this.followers.size > 0)
      this.options.warn(
        `lost the connection to Redis at ${label}: ${this.children("waits", "wait")} for it to come back (up to ${formatDuration(lostAfterMs)}; fleet.lostAfterMs)`,
      );
    this.lostTimer = setTimeout(() => {
      this.lostTimer = undefined;
      this.lostError = new FleetWaitError(
        `lost the connection to Redis at ${label} for more than ${formatDuration(lostAfterMs)}`,
      );
      this.failAll(this.lostError);
    }, lostAfterMs);
    this.lostTimer.unref();
  }

  private reconnected(): void {
    clearTimeout(this.lostTimer);
    this.lostTimer = undefined;
    this.lostError = undefined;
    const since = this.lostSince;
    this.lostSince = undefined;
    if (since === undefined) return;
    this.options.reconnected();
    if (this.followers.size === 0) return;
    this.options.warn(
      `Redis at ${this.options.label} is back after ${formatDuration(Date.now() - since)}: ${this.children("goes", "go")} on`,
    );
    for (const follower of [...this.followers]) follower.back();
  }

  /** Counts the queue's workers while children wait: none left is said once, and ends them after a while. */
  private async countWorkers(): Promise<void> {
    if (this.followers.size === 0 || this.counting || this.lostSince !== undefined) {
      if (this.followers.size === 0) this.noWorkerSince = undefined;
      return;
    }
    this.counting = true;
    try {
      const live = await liveWorkers(this.options.commands, this.options.roster);
      const { label, queue, noWorkerTimeoutMs } = this.options;
      if (live > 0) {
        if (this.noWorkerSince !== undefined)
          this.options.warn(
            `a worker takes jobs from queue "${queue}" again: ${this.children("goes", "go")} on`,
          );
        this.noWorkerSince = undefined;
        return;
      }
      const now = Date.now();
      if (this.noWorkerSince === undefined) {
        this.noWorkerSince = now;
        this.options.warn(
          `no worker is taking jobs from queue "${queue}" at ${label}: ${this.children("waits", "wait")} for one (start one with \`agentry worker --redis ${label} --queue ${queue}\`); they fail if none comes within ${formatDuration(noWorkerTimeoutMs)} (fleet.noWorkerTimeoutMs)`,
        );
      } else if (now - this.noWorkerSince >= noWorkerTimeoutMs) {
        this.noWorkerSince = undefined;
        this.failAll(
          new FleetWaitError(
            `no worker took jobs from queue "${queue}" at ${label} for ${formatDuration(noWorkerTimeoutMs)} (fleet.noWorkerTimeoutMs): start one with \`agentry worker --redis ${label} --queue ${queue}\``,
          ),
        );
      }
    } catch {
      // Redis does not answer: its loss is watched on its own.
    } finally {
      this.counting = false;
    }
  }

  private failAll(error: FleetWaitError): void {
    for (const follower of [...this.followers]) follower.fail(error);
  }

  /** "1 queued child waits", "3 queued children wait". */
  private children(one: string, many: string): string {
    const n = this.followers.size;
    return n === 1 ? `1 queued child ${one}` : `${n} queued children ${many}`;
  }
}
