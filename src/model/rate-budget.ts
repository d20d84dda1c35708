import type { RateLimits, RateWindow } from "./capacity.ts";

/** A provider's window as we mirror it: a bucket that refills at a steady rate until it is full. */
interface Bucket {
  level: number;
  at: number;
  /** Units per millisecond; unknown without the window's size. */
  ratePerMs?: number;
  capacity?: number;
  /** When the provider said it is full again. */
  fullAt: number;
}

/** Weight of the newest call in the running average of tokens per call. */
const SMOOTHING = 0.3;

/**
 * Mirrors an endpoint's rate-limit windows (requests and tokens per period) from the headers of its
 * responses, so that calls wait while a window is spent instead of being sent to get a 429.
 *
 * Providers count a request when it arrives, and their windows refill continuously until "reset" (both
 * Anthropic's and OpenAI's headers mean the time until the window is full again). A response's
 * `remaining` may not yet count the calls sent after it, so those are taken off: the mirror errs on the
 * side of waiting. A call's token cost is the running average of what calls used (uncached input, cache
 * writes and output: what the providers count against their token limits). A window that refills later
 * than `horizonMs` (a daily quota) is not mirrored: waiting hours in silence would be worse than the
 * provider's 429, which says so.
 */
export class RateBudget {
  private requests: Bucket | undefined;
  private tokens: Bucket | undefined;
  private tokensPerCall: number | undefined;
  private readonly horizonMs: number;

  constructor(horizonMs: number) {
    this.horizonMs = horizonMs;
  }

  /**
   * Takes a response's windows. `sentSince` counts the calls sent after the one that brought them,
   * which the provider may not have counted yet.
   */
  update(limits: RateLimits | undefined, sentSince: number, now: number): void {
    const within = (window: RateWindow) => window.resetMs !== undefined && window.resetMs <= this.horizonMs;
    if (limits?.requests && within(limits.requests))
      this.requests = bucket(limits.requests, sentSince, now) ?? this.requests;
    if (limits?.tokens && within(limits.tokens))
      this.tokens = bucket(limits.tokens, sentSince * this.tokenCost(), now) ?? this.tokens;
  }

  /** What a successful call used, for the cost of the next ones against the token window. */
  noteTokens(tokens: number): void {
    if (!Number.isFinite(tokens) || tokens <= 0) return;
    this.tokensPerCall =
      this.tokensPerCall === undefined
        ? tokens
        : this.tokensPerCall + SMOOTHING * (tokens - this.tokensPerCall);
  }

  /** A call is sent: it takes one request and its share of tokens from the windows. */
  consume(now: number): void {
    this.requests = take(this.requests, 1, now);
    this.tokens = take(this.tokens, this.tokenCost(), now);
  }

  /** How long until a call may be sent without emptying a window (0: now). */
  delayMs(now: number): number {
    return Math.max(waitFor(this.requests, 1, now), waitFor(this.tokens, this.tokenCost(), now));
  }

  /** Before any call finished, nothing is known about the cost: only an empty window stops a call. */
  private tokenCost(): number {
    return this.tokensPerCall ?? 1;
  }
}

function bucket(window: RateWindow, sentSince: number, now: number): Bucket | undefined {
  // Without a reset time there is no telling when a spent window is usable again: not worth a wait.
  if (window.resetMs === undefined || !Number.isFinite(window.remaining)) return undefined;
  const resetMs = Math.max(0, window.resetMs);
  const result: Bucket = { level: window.remaining - sentSince, at: now, fullAt: now + resetMs };
  if (window.limit !== undefined && window.limit > 0) {
    result.capacity = window.limit;
    if (resetMs > 0 && window.limit > window.remaining)
      result.ratePerMs = (window.limit - window.remaining) / resetMs;
  }
  return result;
}

/** The level at `now`, or undefined once the window is full again (nothing to mirror until the next response). */
function levelAt(b: Bucket, now: number): number | undefined {
  if (now >= b.fullAt) return undefined;
  if (b.ratePerMs === undefined) return b.level;
  return Math.min(b.capacity ?? Number.POSITIVE_INFINITY, b.level + b.ratePerMs * (now - b.at));
}

function take(b: Bucket | undefined, amount: number, now: number): Bucket | undefined {
  if (b === undefined) return undefined;
  const level = levelAt(b, now);
  return level === undefined ? undefined : { ...b, level: level - amount, at: now };
}

function waitFor(b: Bucket | undefined, cost: number, now: number): number {
  if (b === undefined) return 0;
  const level = levelAt(b, now);
  // A call bigger than the whole window can only go when it is full.
  const need = Math.min(cost, b.capacity ?? cost);
  if (level === undefined || level >= need) return 0;
  const refill = b.ratePerMs === undefined ? Number.POSITIVE_INFINITY : (need - level) / b.ratePerMs;
  return Math.max(0, Math.min(refill, b.fullAt - now));
}
