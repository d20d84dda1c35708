/** One rate-limit window as a provider's response headers reported it. */
export interface RateWindow {
  /** The window's size (requests or tokens per period), when the provider sends it. */
  limit?: number;
  /** What is left of it when the response was sent. */
  remaining: number;
  /** Milliseconds from the response until the window is full again. */
  resetMs?: number;
}

/** The windows a provider reports: requests and (its most restrictive) tokens. */
export interface RateLimits {
  requests?: RateWindow;
  tokens?: RateWindow;
}

/**
 * What a provider said about its capacity on one model call, beside the message itself. The adapters
 * read it from the HTTP status and headers; the limiter (`adaptive-limiter.ts`) learns from it.
 */
export interface CallFeedback {
  /** The provider refused or dropped the call for capacity: HTTP 429, 503, 529 or an overloaded error. */
  throttled: boolean;
  /** How long the provider asked us to wait (`retry-after-ms` / `retry-after`). */
  retryAfterMs?: number;
  rateLimits?: RateLimits;
}

/** A stream that reports its call's feedback once it ended. Provider adapters' streams do. */
export interface FeedbackSource {
  feedback(): CallFeedback | undefined;
}

/** Why a model call waits before it is sent. */
export type CapacityWaitReason =
  /** As many calls as the endpoint's current limit are in flight. */
  | "limit"
  /** The provider answered 429 / overloaded with `retry-after`: nothing is sent before it passes. */
  | "retry_after"
  /** The provider's rate-limit headers say its window is spent until it refills. */
  | "rate_limit";

/**
 * The feedback of a finished stream, or undefined for a stream that cannot tell (any non-adapter
 * model). Takes any object, so this module needs nothing of `model.ts`, which imports it.
 */
export function feedbackOf(stream: object): CallFeedback | undefined {
  if ("feedback" in stream && typeof stream.feedback === "function") {
    const value: unknown = stream.feedback();
    return isFeedback(value) ? value : undefined;
  }
  return undefined;
}

function isFeedback(value: unknown): value is CallFeedback {
  return typeof value === "object" && value !== null && "throttled" in value;
}
