import { setTimeout as sleep } from "node:timers/promises";
import { errorMessage } from "../text/error-message.ts";
import { failedMessage } from "./errors.ts";
import { PushModelStream, pushModel } from "./event-stream.ts";
import type { AssistantMessage } from "./messages.ts";
import { carriesContent, type Model, type ModelRequest, type ModelStream } from "./model.ts";

export interface RetryOptions {
  /** Retries after the first attempt (default 3). */
  maxRetries?: number;
  /** First backoff delay; doubles per attempt (default 1000 ms). */
  baseDelayMs?: number;
  /** Cap on any single wait, including a server's `retry-after` (default 30,000 ms). */
  maxDelayMs?: number;
  /**
   * The idle watchdog: an attempt that delivers no event for this long (a stalled stream, or a server
   * that never answers) is cut off and counts as a retryable failure (default 60,000 ms).
   */
  idleTimeoutMs?: number;
  /** Source of jitter in [0, 1); injectable for tests. */
  random?: () => number;
}

export const DEFAULT_RETRY = {
  maxRetries: 3,
  baseDelayMs: 1000,
  maxDelayMs: 30_000,
  idleTimeoutMs: 60_000,
} as const;

/**
 * A stream that can say how long the server asked us to wait before trying again (`retry-after`).
 * Provider adapters' streams implement it; any other `ModelStream` simply gets plain backoff.
 */
export interface RetryAfterSource {
  retryAfterMs(): number | undefined;
}

/**
 * The one place that retries model calls. A failed attempt is retried when its final message says
 * `retryable` and nothing of it has reached the consumer yet (so no half message is ever duplicated);
 * when part of it had, the error says it was not retried and why. Each retry is announced with a
 * `retry` event; the wait is abortable. Every attempt has an idle watchdog (`idleTimeoutMs`), so a
 * stalled stream fails in a minute instead of hanging until the HTTP client gives up.
 */
export function withRetry(model: Model, options: RetryOptions = {}): Model {
  const maxRetries = Math.max(0, options.maxRetries ?? DEFAULT_RETRY.maxRetries);
  return pushModel(
    model.id,
    () => new PushModelStream(),
    (request, signal, out) => run(model, request, signal, out, maxRetries, options),
  );
}

async function run(
  model: Model,
  request: ModelRequest,
  signal: AbortSignal | undefined,
  out: PushModelStream,
  maxRetries: number,
  options: RetryOptions,
): Promise<void> {
  const idleMs = options.idleTimeoutMs ?? DEFAULT_RETRY.idleTimeoutMs;
  for (let attempt = 0; ; attempt++) {
    const cutOff = new AbortController();
    const inner = model.stream(request, signal ? AbortSignal.any([signal, cutOff.signal]) : cutOff.signal);
    const { final, forwarded } = await forward(inner, out, model.id, idleMs, cutOff, signal);
    const retryable = final.stopReason === "error" && final.retryable === true && !signal?.aborted;
    if (retryable && forwarded) {
      out.end(notRetried(final));
      return;
    }
    if (!retryable || attempt >= maxRetries) {
      out.end(retryable && attempt > 0 ? gaveUp(final, attempt) : final);
      return;
    }
    const delayMs = retryDelayMs(attempt + 1, retryAfterOf(inner), options);
    out.push({ type: "retry", attempt: attempt + 1, delayMs, error: final.errorMessage ?? "unknown error" });
    try {
      await sleep(delayMs, undefined, { signal });
    } catch {
      out.end(
        failedMessage({
          model: model.id,
          stopReason: "aborted",
          errorMessage: `aborted while waiting to retry (${final.errorMessage ?? "unknown error"})`,
        }),
      );
      return;
    }
  }
}

/**
 * Pipes an attempt's events through, holding back its final `done`. When no event comes for `idleMs`,
 * the attempt is aborted through `cutOff` and ends at once as a retryable "stalled" failure, whether
 * or not the provider notices the abort.
 */
async function forward(
  inner: ModelStream,
  out: PushModelStream,
  modelId: string,
  idleMs: number,
  cutOff: AbortController,
  outer: AbortSignal | undefined,
): Promise<{ final: AssistantMessage; forwarded: boolean }> {
  let forwarded = false;
  const iterator = inner[Symbol.asyncIterator]();
  let timer: NodeJS.Timeout | undefined;
  let stall: (value: "stalled") => void = () => {};
  const idle = new Promise<"stalled">((resolve) => {
    stall = resolve;
  });
  const rearm = () => {
    clearTimeout(timer);
    timer = setTimeout(() => stall("stalled"), idleMs);
    timer.unref();
  };
  rearm();
  try {
    while (true) {
      const next = await Promise.race([iterator.next(), idle]);
      if (next === "stalled") {
        if (outer?.aborted) return { final: await inner.result(), forwarded };
        cutOff.abort(new Error("the model stream stalled"));
        void iterator.return?.()?.catch(() => {});
        return { final: stalledMessage(modelId, idleMs), forwarded };
      }
      if (next.done) break;
      const event = next.value;
      if (event.type === "done") return { final: event.message, forwarded };
      // Waiting for capacity (the limiter) is not a stall: the watchdog sleeps until it is granted.
      if (event.type === "capacity_wait") clearTimeout(timer);
      else rearm();
      // Proof of life from the provider (pings, lifecycle events): for the watchdog only.
      if (event.type === "alive") continue;
      // A wait for capacity is news about the call, not part of its answer: the attempt may still be retried.
      if (carriesContent(event)) forwarded = true;
      out.push(event);
    }
  } catch (error) {
    // The contract says streams never throw; a broken implementation must still not break ours.
    const text = errorMessage(error);
    return { final: failedMessage({ model: modelId, stopReason: "error", errorMessage: text }), forwarded };
  } finally {
    clearTimeout(timer);
  }
  return { final: await inner.result(), forwarded };
}

function stalledMessage(modelId: string, idleMs: number): AssistantMessage {
  const seconds = Math.round(idleMs / 100) / 10;
  return failedMessage({
    model: modelId,
    stopReason: "error",
    errorMessage: `the model sent nothing for ${seconds}s: the stream stalled (the idle watchdog, providers.retry.idleTimeoutMs, cut it off)`,
    retryable: true,
  });
}

/**
 * A retryable failure after part of the reply had reached the consumer: trying again would show (and
 * bill) a second copy, so it is not retried, and the message says so. It stays `retryable`: a new
 * call (the user's, or a resume) may well succeed.
 */
function notRetried(final: AssistantMessage): AssistantMessage {
  return {
    ...final,
    errorMessage: `the reply broke off after part of it had arrived, so it was not retried (a retry would repeat it): ${final.errorMessage ?? "unknown error"}`,
  };
}

function gaveUp(final: AssistantMessage, retries: number): AssistantMessage {
  const plural = retries === 1 ? "retry" : "retries";
  return {
    ...final,
    errorMessage: `${final.errorMessage ?? "unknown error"} (gave up after ${retries} ${plural})`,
  };
}

function retryAfterOf(stream: ModelStream): number | undefined {
  if ("retryAfterMs" in stream && typeof stream.retryAfterMs === "function") {
    const value: unknown = stream.retryAfterMs();
    return typeof value === "number" ? value : undefined;
  }
  return undefined;
}

/**
 * The wait before retry number `retry` (1-based): the server's `retry-after` when given, else exponential
 * backoff with jitter (between half and all of `base * 2^(retry-1)`); never more than `maxDelayMs`.
 */
export function retryDelayMs(
  retry: number,
  retryAfterMs: number | undefined,
  options: RetryOptions = {},
): number {
  const base = options.baseDelayMs ?? DEFAULT_RETRY.baseDelayMs;
  const max = options.maxDelayMs ?? DEFAULT_RETRY.maxDelayMs;
  if (retryAfterMs !== undefined) return Math.min(max, Math.max(0, retryAfterMs));
  const backoff = Math.min(max, base * 2 ** (retry - 1));
  const random = options.random ?? Math.random;
  return Math.round(backoff / 2 + (random() * backoff) / 2);
}

/**
 * Reads `retry-after-ms` (milliseconds, sent by OpenAI) or `retry-after` (seconds, or an HTTP date).
 * Header names must be lower-case, as fetch delivers them.
 */
export function parseRetryAfter(
  headers: Readonly<Record<string, string | undefined>> | undefined,
  now: number = Date.now(),
): number | undefined {
  const ms = Number.parseFloat(headers?.["retry-after-ms"] ?? "");
  if (Number.isFinite(ms) && ms >= 0) return ms;
  const value = headers?.["retry-after"]?.trim();
  if (!value) return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return Number.parseFloat(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
