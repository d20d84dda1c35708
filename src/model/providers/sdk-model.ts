import {
  APICallError,
  type LanguageModelV4,
  type LanguageModelV4CallOptions,
  type LanguageModelV4FunctionTool,
  type LanguageModelV4Prompt,
  type LanguageModelV4StreamPart,
  type SharedV4ProviderOptions,
} from "@ai-sdk/provider";
import type { CallFeedback, FeedbackSource } from "../capacity.ts";
import { failedMessage } from "../errors.ts";
import { PushModelStream, pushModel } from "../event-stream.ts";
import { type AssistantMessage, emptyUsage } from "../messages.ts";
import type { Model, ModelRequest } from "../model.ts";
import { type ModelPrice, withCost } from "../pricing.ts";
import type { RetryAfterSource } from "../retry.ts";
import { type CallFailure, describeError, type ErrorHints } from "./describe-error.ts";
import type { RateLimitReader } from "./rate-limit-headers.ts";
import { type ReasoningDataOf, StreamAssembler } from "./stream-assembler.ts";
import { incompleteStream, toFinishOutcome, toUsage } from "./to-finish.ts";
import { type PromptOptions, toSdkPrompt } from "./to-sdk-prompt.ts";
import { toSdkTools } from "./to-sdk-tools.ts";

/** The converted request, before a provider adds its own touches (Anthropic: cache breakpoints). */
export interface SdkCall {
  prompt: LanguageModelV4Prompt;
  tools: LanguageModelV4FunctionTool[] | undefined;
  providerOptions?: SharedV4ProviderOptions;
}

export interface SdkModelOptions {
  /** Canonical `provider:model`. */
  id: string;
  language: LanguageModelV4;
  hints: ErrorHints;
  price?: ModelPrice | undefined;
  prompt?: PromptOptions;
  /** Provider-specific request touches, applied after conversion. */
  prepare?: (call: SdkCall) => SdkCall;
  /** Reads what a reasoning part needs to be sent back out of a stream part's provider metadata. */
  reasoningDataOf?: ReasoningDataOf;
  /** Reads the provider's rate-limit headers, for the endpoint's limiter. */
  rateLimits?: RateLimitReader;
}

/** How often, at most, a stream says it is alive while the provider sends nothing of the answer. */
const ALIVE_EVERY_MS = 250;

/**
 * A provider stream that remembers what the server said about its capacity: `retry-after` for the
 * retry policy, whether the call was throttled and the rate-limit headers for the limiter.
 */
class ProviderStream extends PushModelStream implements RetryAfterSource, FeedbackSource {
  retryAfter: number | undefined;
  private state: CallFeedback = { throttled: false };

  retryAfterMs(): number | undefined {
    return this.retryAfter;
  }

  feedback(): CallFeedback {
    return this.state;
  }

  /** The response's headers arrived (with the stream, or with an error). */
  headers(read: RateLimitReader | undefined, headers: Record<string, string | undefined> | undefined): void {
    const rateLimits = read?.(headers);
    if (rateLimits !== undefined) this.state = { ...this.state, rateLimits };
  }

  failed(failure: CallFailure): void {
    this.retryAfter = failure.retryAfterMs;
    this.state = {
      ...this.state,
      throttled: failure.throttled,
      ...(failure.retryAfterMs === undefined ? {} : { retryAfterMs: failure.retryAfterMs }),
    };
  }
}

/**
 * A `Model` over an AI SDK language model: converts the request, calls `doStream` once (the provider
 * packages never retry inside `doStream`; `withRetry` does) and maps its parts to our events.
 */
export function sdkModel(options: SdkModelOptions): Model {
  return pushModel(
    options.id,
    () => new ProviderStream(),
    (request, signal, out) => drive(options, request, signal, out),
  );
}

async function drive(
  options: SdkModelOptions,
  request: ModelRequest,
  signal: AbortSignal | undefined,
  out: ProviderStream,
): Promise<void> {
  const assembler = new StreamAssembler(options.reasoningDataOf);
  const aborted = () =>
    out.end(
      failedMessage({
        model: options.id,
        stopReason: "aborted",
        errorMessage: "aborted",
        content: assembler.partialContent(),
      }),
    );
  if (signal?.aborted) return aborted();
  let reader: ReadableStreamDefaultReader<LanguageModelV4StreamPart> | undefined;
  // Ends the stream at once on abort, whatever the SDK is waiting for.
  const onAbort = () => {
    aborted();
    void reader?.cancel().catch(() => {});
  };
  signal?.addEventListener("abort", onAbort, { once: true });
  try {
    const { stream, response } = await options.language.doStream(callOptions(options, request, signal));
    out.headers(options.rateLimits, response?.headers);
    reader = stream.getReader();
    if (signal?.aborted) return onAbort();
    let lastAlive = 0;
    while (true) {
      const { done, value } = await reader.read();
      if (done) break;
      if (value.type === "raw") {
        // Every chunk the provider sends, pings and lifecycle events included: proof of life for the
        // idle watchdog (withRetry), which would otherwise see nothing while a model thinks unseen.
        const now = Date.now();
        if (now - lastAlive >= ALIVE_EVERY_MS) {
          lastAlive = now;
          out.push({ type: "alive" });
        }
        continue;
      }
      for (const event of assembler.accept(value)) out.push(event);
      if (assembler.error) {
        void reader.cancel().catch(() => {});
        break;
      }
    }
    out.end(finalMessage(options, assembler, out));
  } catch (error) {
    if (signal?.aborted) return aborted();
    const failure = describeError(error, options.hints);
    if (APICallError.isInstance(error)) out.headers(options.rateLimits, error.responseHeaders);
    out.failed(failure);
    out.end(
      failedMessage({
        model: options.id,
        stopReason: "error",
        errorMessage: failure.message,
        retryable: failure.retryable,
        content: assembler.partialContent(),
      }),
    );
  } finally {
    signal?.removeEventListener("abort", onAbort);
  }
}

function callOptions(
  options: SdkModelOptions,
  request: ModelRequest,
  signal: AbortSignal | undefined,
): LanguageModelV4CallOptions {
  let call: SdkCall = {
    prompt: toSdkPrompt(request.system, request.messages, options.prompt),
    tools: toSdkTools(request.tools),
  };
  if (options.prepare) call = options.prepare(call);
  // Raw chunks only feed the idle watchdog's proof of life (see `drive`).
  const result: LanguageModelV4CallOptions = { prompt: call.prompt, includeRawChunks: true };
  if (call.tools) result.tools = call.tools;
  if (call.providerOptions) result.providerOptions = call.providerOptions;
  if (signal) result.abortSignal = signal;
  if (request.maxOutputTokens !== undefined) result.maxOutputTokens = request.maxOutputTokens;
  if (request.temperature !== undefined) result.temperature = request.temperature;
  return result;
}

function finalMessage(
  options: SdkModelOptions,
  assembler: StreamAssembler,
  out: ProviderStream,
): AssistantMessage {
  const usage = assembler.finish ? withCost(toUsage(assembler.finish.usage), options.price) : emptyUsage();
  const fail = (errorMessage: string, retryable: boolean) =>
    failedMessage({
      model: options.id,
      stopReason: "error",
      errorMessage,
      retryable,
      usage,
      content: assembler.partialContent(),
    });
  if (assembler.error) {
    const failure = describeError(assembler.error.value, options.hints);
    out.failed(failure);
    return fail(failure.message, failure.retryable);
  }
  if (!assembler.finish) return fail(incompleteStream(), true);
  const outcome = toFinishOutcome(assembler.finish.finishReason, assembler.hasToolCalls());
  if (!outcome.ok) return fail(outcome.errorMessage, outcome.retryable);
  out.push({ type: "usage", usage });
  return {
    role: "assistant",
    content: assembler.content(),
    stopReason: outcome.stopReason,
    usage,
    model: options.id,
  };
}
