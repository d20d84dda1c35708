import { setTimeout as sleep } from "node:timers/promises";
import { failedMessage } from "./errors.ts";
import { PushModelStream } from "./event-stream.ts";
import type { AssistantMessage } from "./messages.ts";
import { carriesContent, type Model, type ModelRequest, type ModelStream } from "./model.ts";

export interface RetryOptions {
  /** Retries after the first attempt (default 3). */
  maxRetries?: number;
  /** First backoff delay; doubles per attempt (default 1000 ms). */
  baseDelayMs?: number;
  /** Cap on any single wait, including a server's `retry-after` (default 30,000 ms). */
  maxDelayMs?: number;
  /** Source of jitter in [0, 1); injectable for tests. */
  random?: () => number;
}

export const DEFAULT_RETRY = { maxRetries: 3, baseDelayMs: 1000, maxDelayMs: 30_000 } as const;

/**
 * A stream that can say how long the server asked us to wait before trying again (`retry-after`).
 * Provider adapters' streams implement it; any other `ModelStream` simply gets plain backoff.
 */
export interface RetryAfterSource {
  retryAfterMs(): number | undefined;
}

/**
 * The one place that retries model calls. A failed attempt is retried when its final message says
 * `retryable` and nothing of it has reached the consumer yet (so no half message is ever duplicated).
 * Each retry is announced with a `retry` event; the wait is abortable.
 */
export function withRetry(model: Model, options: RetryOptions = {}): Model {
  const maxRetries = Math.max(0, options.maxRetries ?? DEFAULT_RETRY.maxRetries);
  return {
    id: model.id,
    stream(request: ModelRequest, signal?: AbortSignal): ModelStream {
      const out = new PushModelStream();
      void run(model, request, signal, out, maxRetries, options);
      return out;
    },
  };
}

async function run(
  model: Model,
  request: ModelRequest,
  signal: AbortSignal | undefined,
  out: PushModelStream,
  maxRetries: number,
  options: RetryOptions,
): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    const inner = model.stream(request, signal);
    const { final, forwarded } = await forward(inner, out, model.id);
    const retry = final.stopReason === "error" && final.retryable === true && !forwarded && !signal?.aborted;
    if (!retry || attempt >= maxRetries) {
      out.end(retry && attempt > 0 ? gaveUp(final, attempt) : final);
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

/** Pipes an attempt's events through, holding back its final `done`. */
async function forward(
  inner: ModelStream,
  out: PushModelStream,
  modelId: string,
): Promise<{ final: AssistantMessage; forwarded: boolean }> {
  let forwarded = false;
  try {
    for await (const event of inner) {
      if (event.type === "done") return { final: event.message, forwarded };
      // A wait for capacity is news about the call, not part of its answer: the attempt may still be retried.
      if (carriesContent(event)) forwarded = true;
      out.push(event);
    }
  } catch (error) {
    // The contract says streams never throw; a broken implementation must still not break ours.
    const text = error instanceof Error ? error.message : String(error);
    return { final: failedMessage({ model: modelId, stopReason: "error", errorMessage: text }), forwarded };
  }
  return { final: await inner.result(), forwarded };
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
