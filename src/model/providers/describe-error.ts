import { APICallError } from "@ai-sdk/provider";
import { z } from "zod";
import { errorMessage } from "../../text/error-message.ts";
import { parseRetryAfter } from "../retry.ts";
import { incompleteStream } from "./to-finish.ts";

/** What the user can set to fix a provider's errors; named in the messages. */
export interface ErrorHints {
  /** e.g. "Anthropic" */
  label: string;
  /** The provider's model name. */
  model: string;
  /** e.g. "ANTHROPIC_API_KEY or providers.anthropic.apiKey in agentry.json" */
  keyHint?: string;
  /** e.g. "ANTHROPIC_BASE_URL or providers.anthropic.baseUrl in agentry.json" */
  baseUrlHint?: string;
  /**
   * What to change when the server may speak another wire API than the one used; added to a 404 and
   * to a reply that cannot be read (e.g. OpenAI's Responses API against a Chat Completions server).
   */
  apiHint?: string;
}

export interface CallFailure {
  message: string;
  retryable: boolean;
  /** Refused or dropped for capacity (429, 503, 529, overloaded): the endpoint's limiter backs off. */
  throttled: boolean;
  retryAfterMs?: number;
}

/** Errors sent inside an SSE stream arrive as plain objects (e.g. Anthropic's `overloaded_error`). */
const streamErrorSchema = z.object({
  message: z.string(),
  type: z.string().optional(),
  statusCode: z.number().optional(),
  isRetryable: z.boolean().optional(),
});

/** Both providers' error bodies: `{ error: { type?, code?, message } }`. */
const errorBodySchema = z.object({
  error: z.object({ type: z.string().nullish(), code: z.union([z.string(), z.number()]).nullish() }),
});

/** The SDK's errors for requests a provider cannot express (e.g. images for a text-only API). */
const REQUEST_ERRORS = new Set([
  "AI_UnsupportedFunctionalityError",
  "AI_InvalidPromptError",
  "AI_InvalidArgumentError",
]);

/** Turns anything a provider call threw (or streamed as an error) into a message the user can act on. */
export function describeError(error: unknown, hints: ErrorHints): CallFailure {
  if (APICallError.isInstance(error)) return describeApiCallError(error, hints);
  const streamed = streamErrorSchema.safeParse(error);
  if (streamed.success && !(error instanceof Error)) {
    const { message, type, statusCode } = streamed.data;
    if (statusCode !== undefined) return describeStatus(statusCode, type, message, hints, undefined);
    return {
      message: `${hints.label} stream error${type ? ` (${type})` : ""}: ${message}`,
      retryable: streamed.data.isRetryable ?? false,
      throttled: type !== undefined && THROTTLE_TYPES.has(type),
    };
  }
  if (isConnectionLoss(error))
    return { message: incompleteStream(chain(error)), retryable: true, throttled: false };
  if (error instanceof Error && REQUEST_ERRORS.has(error.name))
    return {
      message: `${hints.label} cannot take this request (model "${hints.model}"): ${error.message}. Pick another model with --model.`,
      retryable: false,
      throttled: false,
    };
  return unreadable(error, hints);
}

function unreadable(error: unknown, hints: ErrorHints): CallFailure {
  const what = `${hints.label} sent a reply agentry could not read: ${brief(chain(error))}`;
  if (!hints.apiHint) return { message: what, retryable: false, throttled: false };
  const stop = /[.!?]$/.test(what) ? "" : ".";
  return {
    message: `${what}${stop} If the server speaks another API: ${hints.apiHint}.`,
    retryable: false,
    throttled: false,
  };
}

function describeApiCallError(error: APICallError, hints: ErrorHints): CallFailure {
  // A 2xx whose body broke off while streaming: the SDK wraps the socket error.
  if (error.statusCode !== undefined && error.statusCode < 400) {
    if (isConnectionLoss(error))
      return { message: incompleteStream(chain(error.cause)), retryable: true, throttled: false };
    return unreadable(error, hints);
  }
  // Without a status the SDK marks what failed to connect retryable; the rest is a reply it could not
  // use (e.g. a Chat Completions stream where the Responses API was expected).
  if (error.statusCode === undefined && !error.isRetryable) return unreadable(error, hints);
  if (error.statusCode === undefined) {
    const where = hints.baseUrlHint ? ` (set by ${hints.baseUrlHint})` : "";
    return {
      message: `Could not reach ${hints.label} at ${error.url}: ${chain(error)}. Check the network and the base URL${where}.`,
      retryable: true,
      throttled: false,
    };
  }
  const body = errorBodySchema.safeParse(error.data ?? parseJson(error.responseBody));
  const type = body.success ? (body.data.error.type ?? body.data.error.code ?? undefined) : undefined;
  const retryAfterMs = parseRetryAfter(error.responseHeaders);
  return describeStatus(
    error.statusCode,
    type === undefined ? undefined : String(type),
    error.message,
    hints,
    retryAfterMs,
  );
}

function describeStatus(
  status: number,
  type: string | undefined,
  providerMessage: string,
  hints: ErrorHints,
  retryAfterMs: number | undefined,
): CallFailure {
  const what = `${hints.label} returned HTTP ${status}${type ? ` ${type}` : ""}: ${providerMessage.trim() || "(no message)"}`;
  const failure: CallFailure = {
    message: `${what}${/[.!?]$/.test(what) ? "" : "."} ${advice(status, type, hints)}`,
    retryable: isRetryableStatus(status),
    throttled: THROTTLE_STATUSES.has(status) || (type !== undefined && THROTTLE_TYPES.has(type)),
  };
  if (retryAfterMs !== undefined) failure.retryAfterMs = retryAfterMs;
  return failure;
}

/** Answers that mean "too much at once": rate limited, unavailable, overloaded. */
const THROTTLE_STATUSES = new Set([429, 503, 529]);
const THROTTLE_TYPES = new Set(["rate_limit_error", "overloaded_error", "rate_limit_exceeded"]);

/** 408/409/429 and every 5xx (529 is Anthropic's "overloaded") may succeed later; other 4xx will not. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

function advice(status: number, type: string | undefined, hints: ErrorHints): string {
  const key = hints.keyHint ? `set ${hints.keyHint}` : "check the provider's API key";
  if (status === 401) return `The API key was rejected: ${key}.`;
  if (status === 403)
    return `The API key may not use this model or resource: ${key}, or pick another model with --model.`;
  if (status === 404) {
    const base = hints.baseUrlHint ? ` and the base URL (${hints.baseUrlHint})` : "";
    const api = hints.apiHint ? `; ${hints.apiHint}` : "";
    return `Check the model name "${hints.model}"${base}, or pick another model with --model${api}.`;
  }
  if (status === 413) return "The request is too large: shorten the conversation or the tool outputs.";
  if (status === 429)
    return "Rate limited: if it persists, run fewer agents at once or check your plan's limits.";
  if (status === 529 || type === "overloaded_error")
    return "The provider is overloaded; try again later if it persists.";
  if (status >= 500) return "The provider failed; try again later if it persists.";
  if (status === 408 || status === 409) return "A temporary conflict; try again.";
  return "The provider rejected the request and it will not be retried; check the model name and the request settings.";
}

/** undici reports a dropped connection while reading the body as `TypeError: terminated` (+ a socket cause). */
function isConnectionLoss(error: unknown): boolean {
  for (let current: unknown = error, depth = 0; current instanceof Error && depth < 5; depth++) {
    const code = "code" in current ? current.code : undefined;
    if (current.message === "terminated") return true;
    if (
      typeof code === "string" &&
      /^(ECONNRESET|EPIPE|ECONNABORTED|UND_ERR_SOCKET|UND_ERR_ABORTED)$/.test(code)
    )
      return true;
    current = current.cause;
  }
  return false;
}

/**
 * A long detail (a validation dump of the whole chunk, SDK advice naming its own functions) is cut
 * to its first sentence, or to 300 characters.
 */
function brief(detail: string): string {
  if (detail.length <= 300) return detail;
  const sentence = /^.{20,300}?[.!?](?=\s)/s.exec(detail)?.[0];
  return sentence ?? `${detail.slice(0, 300)}…`;
}

/** "message: cause message: …" */
function chain(error: unknown): string {
  const parts: string[] = [];
  for (let current: unknown = error, depth = 0; current !== undefined && depth < 5; depth++) {
    const text = errorMessage(current);
    if (text && !parts.some((part) => part.includes(text))) parts.push(text);
    current = current instanceof Error ? current.cause : undefined;
  }
  return parts.join(": ") || "unknown error";
}

function parseJson(text: string | undefined): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
