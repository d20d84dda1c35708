import type { CallResult, CapacityWait, Permit } from "./adaptive-limiter.ts";
import { type CallFeedback, type FeedbackSource, feedbackOf } from "./capacity.ts";
import { failedMessage } from "./errors.ts";
import { PushModelStream, pushModel } from "./event-stream.ts";
import type { AssistantMessage } from "./messages.ts";
import type { Model, ModelEvent, ModelRequest, ModelStream } from "./model.ts";
import type { EndpointLimiter } from "./model-limiters.ts";
import { relayStream } from "./relay-stream.ts";
import type { RetryAfterSource } from "./retry.ts";

export interface LimitedModelOptions {
  /** A waiting call announces its wait again this often (default 30 s), so watchers see it is alive. */
  heartbeatMs?: number;
}

const DEFAULT_HEARTBEAT_MS = 30_000;

/** The limiter's stream: it passes its call's `retry-after` and feedback on to the retry policy. */
class LimitedStream extends PushModelStream implements RetryAfterSource, FeedbackSource {
  inner: ModelStream | undefined;

  retryAfterMs(): number | undefined {
    const inner = this.inner;
    if (inner === undefined) return undefined;
    if ("retryAfterMs" in inner && typeof inner.retryAfterMs === "function") {
      const value: unknown = inner.retryAfterMs();
      if (typeof value === "number") return value;
    }
    return feedbackOf(inner)?.retryAfterMs;
  }

  feedback(): CallFeedback | undefined {
    return this.inner === undefined ? undefined : feedbackOf(this.inner);
  }
}

/**
 * Sends each call of `model` through `limiter`: a call that may not go yet waits (abortably, announced
 * by a `capacity_wait` event and, when it goes, `capacity_granted`), and every call's end — success,
 * refusal for capacity with its `retry-after`, the rate-limit headers — is reported back to the
 * limiter. Put it inside `withRetry`, so each attempt waits its turn and is counted.
 */
export function withLimiter(
  model: Model,
  limiter: EndpointLimiter,
  options: LimitedModelOptions = {},
): Model {
  const heartbeatMs = options.heartbeatMs ?? DEFAULT_HEARTBEAT_MS;
  return pushModel(
    model.id,
    () => new LimitedStream(),
    (request, signal, out) => send(model, limiter, request, signal, out, heartbeatMs),
  );
}

async function send(
  model: Model,
  limiter: EndpointLimiter,
  request: ModelRequest,
  signal: AbortSignal | undefined,
  out: LimitedStream,
  heartbeatMs: number,
): Promise<void> {
  const permit = limiter.tryAcquire() ?? (await wait(limiter, signal, out, heartbeatMs));
  if (permit === undefined) {
    out.end(
      failedMessage({
        model: model.id,
        stopReason: "aborted",
        errorMessage: "aborted while waiting for model capacity",
      }),
    );
    return;
  }
  const inner = model.stream(request, signal);
  out.inner = inner;
  // A stream that broke the contract and threw still ends here: it must not keep its slot forever.
  const final = await relayStream(inner, out, model.id);
  permit.release(callResult(final, feedbackOf(inner)));
  out.end(final);
}

/** Waits for a permit, announcing the wait; undefined when the signal aborted first. */
async function wait(
  limiter: EndpointLimiter,
  signal: AbortSignal | undefined,
  out: LimitedStream,
  heartbeatMs: number,
): Promise<Permit | undefined> {
  const started = Date.now();
  let heartbeat: NodeJS.Timeout | undefined;
  let waited = false;
  try {
    const permit = await limiter.acquire(signal, (first) => {
      waited = true;
      out.push(waitEvent(first));
      heartbeat = setInterval(() => out.push(waitEvent(limiter.waitInfo())), heartbeatMs);
      heartbeat.unref();
    });
    // Granted after a wait (a limiter shared with other machines answers later even when it need not wait).
    if (waited) {
      const { limit, inFlight } = limiter.state;
      out.push({ type: "capacity_granted", waitedMs: Date.now() - started, limit, inFlight });
    }
    return permit;
  } catch {
    return undefined;
  } finally {
    clearInterval(heartbeat);
  }
}

function waitEvent(wait: CapacityWait): ModelEvent {
  const event: ModelEvent = {
    type: "capacity_wait",
    reason: wait.reason,
    limit: wait.limit,
    inFlight: wait.inFlight,
    waiting: wait.waiting,
  };
  if (wait.resumeInMs !== undefined) event.resumeInMs = Math.round(wait.resumeInMs);
  return event;
}

function callResult(final: AssistantMessage, feedback: CallFeedback | undefined): CallResult {
  if (final.stopReason === "aborted") return { kind: "aborted" };
  const rateLimits = feedback?.rateLimits === undefined ? {} : { rateLimits: feedback.rateLimits };
  if (feedback?.throttled === true) {
    return {
      kind: "throttled",
      ...rateLimits,
      ...(feedback.retryAfterMs === undefined ? {} : { retryAfterMs: feedback.retryAfterMs }),
    };
  }
  if (final.stopReason === "error") return { kind: "failed", ...rateLimits };
  const { input, cacheWrite, output } = final.usage;
  return { kind: "ok", ...rateLimits, tokens: input + cacheWrite + output };
}
