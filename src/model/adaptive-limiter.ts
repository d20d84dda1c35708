import type { CapacityWaitReason, RateLimits } from "./capacity.ts";
import { RateBudget } from "./rate-budget.ts";

export interface LimiterOptions {
  /** The most calls in flight, however well the endpoint answers (default 32). */
  max: number;
  /** The fewest, however much it refuses (default 1). */
  min: number;
  /** Where the limit starts (default 16, within min–max). */
  initial: number;
  /** Above the last limit that was refused, one more call per this long of full use (default 5 s). */
  probeMs: number;
  /**
   * The longest a `retry-after` holds calls back, and the longest refill of a rate-limit window that
   * is waited for (default 60 s; a daily quota is left to the provider's 429).
   */
  maxPauseMs: number;
}

export const DEFAULT_LIMITER_OPTIONS: Readonly<LimiterOptions> = Object.freeze({
  max: 32,
  min: 1,
  initial: 16,
  probeMs: 5_000,
  maxPauseMs: 60_000,
});

/** A probe refused again waits twice as long before the next, up to this many times the base. */
const MAX_PROBE_BACKOFF = 8;

/** How a call ended, as far as the endpoint's capacity is concerned. */
export type CallResult =
  | { kind: "ok"; rateLimits?: RateLimits; tokens?: number }
  | { kind: "throttled"; retryAfterMs?: number; rateLimits?: RateLimits }
  /** Any other failure: says nothing about capacity (its headers still count). */
  | { kind: "failed"; rateLimits?: RateLimits }
  | { kind: "aborted" };

/** The right to send one call; `release` it exactly once, when the call ended. */
export interface Permit {
  release(result: CallResult): void;
}

export interface LimiterState {
  /** Calls that may be in flight at once now. */
  limit: number;
  inFlight: number;
  /** Calls waiting to be sent. */
  waiting: number;
}

export interface CapacityWait extends LimiterState {
  reason: CapacityWaitReason;
  resumeInMs?: number;
}

interface Waiter {
  grant: (permit: Permit) => void;
}

interface Held {
  /** Order in which calls were sent. */
  seq: number;
  /** It took the last free slot: the limit, not the demand, decided how many were in flight. */
  saturated: boolean;
}

/**
 * A burst of refusals, followed until every call that was in flight when it began has ended: how
 * many of those the provider took is what it takes at once.
 */
interface Burst {
  /** The calls in flight when the first refusal came back (sent before it), not yet ended. */
  pending: Set<number>;
  succeeded: number;
  refused: number;
}

/**
 * How many calls to one model endpoint may be in flight: one limiter per endpoint, shared by every
 * agent of a tree. The limit adapts to what the provider answers:
 *
 * - **grows** while calls succeed and the limit is what holds calls back: by one per success up to the
 *   last limit the provider refused (so it doubles per round trip, like TCP's slow start), and above
 *   it by one per `probeMs` of full use (a probe that is refused again backs off, up to 8 × `probeMs`);
 * - **shrinks** by one per call refused for capacity (429, 503, 529, overloaded) — the calls beyond
 *   what the provider takes are the ones refused — but by at most half per burst of refusals; then,
 *   once every call that was in flight when the burst began has ended, **settles** at the number of
 *   them the provider took, when it refused several and took some: a provider that takes 5 at once
 *   is learnt in one round, not one halving per `retry-after`. (A lone refusal says too little —
 *   an overloaded blip looks the same — and one that took none is a spent window, not a size.)
 *   A burst in which the provider took some calls also ends the `retry-after` pause below: the
 *   refused calls wait it out themselves, and the limit keeps the others within what was taken;
 * - **pauses** every new call until a `retry-after` has passed, and while the provider's rate-limit
 *   headers say a window is spent (`RateBudget`), so calls wait instead of drawing 429s.
 *
 * Waiting calls are sent in arrival order. Within `min`–`max` always.
 */
export class AdaptiveLimiter {
  readonly options: Readonly<LimiterOptions>;
  private current: number;
  /** The limit the provider last refused at: up to it growth is fast, above it a probe. */
  private threshold: number;
  private inFlightCount = 0;
  private readonly queue: Waiter[] = [];
  private pausedUntil = 0;
  private readonly budget: RateBudget;
  private sent = 0;
  /** The calls in flight, by their `seq`. */
  private readonly flying = new Set<number>();
  /** Calls sent before this number belong to the burst the last decrease answered. */
  private burstStart = 0;
  private burstFloor = 0;
  private burst: Burst | undefined;
  private lastGrowthAt: number;
  private lastThrottleAt = Number.NEGATIVE_INFINITY;
  private probeMs: number;
  private timer: NodeJS.Timeout | undefined;
  private timerAt = 0;
  private readonly now: () => number;

  constructor(options: Partial<LimiterOptions> = {}, now: () => number = () => Date.now()) {
    this.options = resolveLimiterOptions(options);
    this.now = now;
    this.budget = new RateBudget(this.options.maxPauseMs);
    this.current = this.options.initial;
    this.threshold = this.options.max;
    this.probeMs = this.options.probeMs;
    this.lastGrowthAt = now();
  }

  get state(): LimiterState {
    return { limit: this.current, inFlight: this.inFlightCount, waiting: this.queue.length };
  }

  /** Why a call would wait now, or undefined when one may be sent. */
  blocked(): Omit<CapacityWait, keyof LimiterState> | undefined {
    const now = this.now();
    if (now < this.pausedUntil) return { reason: "retry_after", resumeInMs: this.pausedUntil - now };
    const budget = this.budget.delayMs(now);
    if (budget > 0) return { reason: "rate_limit", resumeInMs: budget };
    if (this.inFlightCount >= this.current) return { reason: "limit" };
    return undefined;
  }

  /** A permit at once when a call may be sent now and none waits before it. */
  tryAcquire(): Permit | undefined {
    if (this.queue.length > 0 || this.blocked() !== undefined) return undefined;
    return this.take();
  }

  /**
   * Waits (in arrival order) until a call may be sent. Rejects with the signal's reason when it aborts
   * first. `onQueued` is told once, synchronously, when the call has to wait.
   */
  acquire(signal?: AbortSignal, onQueued?: (wait: CapacityWait) => void): Promise<Permit> {
    signal?.throwIfAborted();
    const now = this.tryAcquire();
    if (now) return Promise.resolve(now);
    return new Promise<Permit>((resolve, reject) => {
      const onAbort = () => {
        const index = this.queue.indexOf(waiter);
        if (index >= 0) this.queue.splice(index, 1);
        reject(signal?.reason);
        this.pump();
      };
      const waiter: Waiter = {
        grant: (permit) => {
          signal?.removeEventListener("abort", onAbort);
          resolve(permit);
        },
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      this.queue.push(waiter);
      onQueued?.(this.waitInfo());
      this.pump();
    });
  }

  /** What a waiting call would report now. */
  waitInfo(): CapacityWait {
    return { ...this.state, ...(this.blocked() ?? { reason: "limit" }) };
  }

  private take(): Permit {
    this.inFlightCount++;
    const held: Held = { seq: this.sent++, saturated: this.inFlightCount >= this.current };
    this.flying.add(held.seq);
    this.budget.consume(this.now());
    let released = false;
    return {
      release: (result) => {
        if (released) return;
        released = true;
        this.inFlightCount--;
        this.flying.delete(held.seq);
        this.learn(held, result);
        this.follow(held, result);
        this.pump();
      },
    };
  }

  /** Counts the calls of a burst as they end; when the last has, the limit settles on what was taken. */
  private follow(held: Held, result: CallResult): void {
    const burst = this.burst;
    if (burst === undefined || !burst.pending.delete(held.seq)) return;
    if (result.kind === "ok") burst.succeeded++;
    if (result.kind === "throttled") burst.refused++;
    if (burst.pending.size > 0) return;
    this.burst = undefined;
    if (burst.succeeded === 0) return;
    // The provider took calls while it refused others: it refused too many at once, which the limit
    // now holds back. The refused calls wait out their retry-after themselves (the retry policy);
    // the others need not wait with them.
    this.pausedUntil = Math.min(this.pausedUntil, this.now());
    if (burst.refused < 2 || burst.succeeded >= this.current) return;
    this.current = Math.max(this.options.min, burst.succeeded);
    this.threshold = this.current;
  }

  private learn(held: Held, result: CallResult): void {
    const now = this.now();
    if (result.kind === "aborted") return;
    this.budget.update(result.rateLimits, this.sent - held.seq - 1, now);
    if (result.kind === "ok") {
      if (result.tokens !== undefined) this.budget.noteTokens(result.tokens);
      this.grow(held, now);
    } else if (result.kind === "throttled") {
      this.shrink(held, now);
      if (result.retryAfterMs !== undefined && result.retryAfterMs > 0)
        this.pausedUntil = Math.max(
          this.pausedUntil,
          now + Math.min(result.retryAfterMs, this.options.maxPauseMs),
        );
    }
  }

  private grow(held: Held, now: number): void {
    // A limit nobody is held back by says nothing about whether a higher one would be taken.
    if (!held.saturated && this.queue.length === 0) return;
    if (this.current >= this.options.max) return;
    if (this.current < this.threshold) {
      this.current++;
      return;
    }
    if (now - this.lastGrowthAt < this.probeMs) return;
    // The last probe was not refused: probing may go back to its base pace.
    if (this.lastThrottleAt < this.lastGrowthAt) this.probeMs = this.options.probeMs;
    this.current++;
    this.lastGrowthAt = now;
  }

  private shrink(held: Held, now: number): void {
    if (held.seq >= this.burstStart) {
      // A new burst: the calls sent from now on were sent knowing about it.
      this.burstStart = this.sent;
      this.burstFloor = Math.max(this.options.min, Math.floor(this.current / 2));
      this.burst = { pending: new Set(this.flying), succeeded: 0, refused: 1 };
      if (this.current > this.threshold)
        this.probeMs = Math.min(this.probeMs * 2, this.options.probeMs * MAX_PROBE_BACKOFF);
    }
    this.current = Math.max(this.burstFloor, this.current - 1);
    this.threshold = this.current;
    this.lastThrottleAt = now;
    this.lastGrowthAt = now;
  }

  /** Sends waiting calls while they may go; otherwise wakes up when a pause or window ends. */
  private pump(): void {
    if (this.queue.length === 0) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    while (this.queue.length > 0) {
      const block = this.blocked();
      if (block !== undefined) {
        if (block.resumeInMs !== undefined) this.wakeIn(block.resumeInMs);
        return;
      }
      const waiter = this.queue.shift();
      waiter?.grant(this.take());
    }
  }

  private wakeIn(ms: number): void {
    const at = this.now() + ms;
    if (this.timer !== undefined && this.timerAt <= at) return;
    clearTimeout(this.timer);
    this.timerAt = at;
    // Not unref'd: a call waiting here is work the process must stay alive for.
    this.timer = setTimeout(
      () => {
        this.timer = undefined;
        this.pump();
      },
      Math.max(1, Math.ceil(ms)),
    );
  }
}

/** Fills the defaults in and keeps min ≤ initial ≤ max; throws a `RangeError` naming a bad value. */
export function resolveLimiterOptions(options: Partial<LimiterOptions>): LimiterOptions {
  const defined = Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined));
  const merged: LimiterOptions = { ...DEFAULT_LIMITER_OPTIONS, ...defined };
  for (const key of ["max", "min", "initial"] as const) {
    if (!Number.isInteger(merged[key]) || merged[key] < 1)
      throw new RangeError(`model concurrency ${key} must be a whole number ≥ 1, got ${merged[key]}`);
  }
  if (merged.min > merged.max)
    throw new RangeError(`model concurrency min (${merged.min}) must not exceed max (${merged.max})`);
  for (const key of ["probeMs", "maxPauseMs"] as const) {
    if (!Number.isFinite(merged[key]) || merged[key] < 0)
      throw new RangeError(
        `model concurrency ${key} must be a number of milliseconds ≥ 0, got ${merged[key]}`,
      );
  }
  return { ...merged, initial: Math.min(merged.max, Math.max(merged.min, merged.initial)) };
}
