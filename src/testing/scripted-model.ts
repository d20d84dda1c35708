import { setTimeout as sleep } from "node:timers/promises";
import type { CallFeedback, FeedbackSource, RateLimits } from "../model/capacity.ts";
import { PushModelStream } from "../model/event-stream.ts";
import type { AssistantMessage, ToolCallPart, Usage } from "../model/messages.ts";
import type { Model, ModelRequest, ModelStream } from "../model/model.ts";
import { errorMessage } from "../text/error-message.ts";

/** One scripted assistant reply. */
export interface ScriptedReply {
  text?: string;
  reasoning?: string;
  /** `args` is serialized to JSON; `rawArgs` is sent verbatim (use it for malformed JSON). */
  toolCalls?: Array<{ id?: string; name: string; args?: unknown; rawArgs?: string }>;
  usage?: Partial<Usage>;
  /**
   * Ends the reply as a failure instead. `throttled` makes it a refusal for capacity (as a 429 or an
   * overloaded error would be), with the provider's `retryAfterMs`.
   */
  error?: { message: string; retryable?: boolean; throttled?: boolean; retryAfterMs?: number };
  /** The rate-limit windows the reply reports, as a provider's headers would. */
  rateLimits?: RateLimits;
  /** Delay before the reply starts streaming (abortable). */
  delayMs?: number;
}

/** A scripted reply's stream reports what its script said about capacity, as an adapter's does. */
class ScriptedStream extends PushModelStream implements FeedbackSource {
  state: CallFeedback | undefined;

  feedback(): CallFeedback | undefined {
    return this.state;
  }

  retryAfterMs(): number | undefined {
    return this.state?.retryAfterMs;
  }
}

export type ScriptStep =
  | ScriptedReply
  | ((request: ModelRequest, call: number) => ScriptedReply | Promise<ScriptedReply>);

export interface ScriptedModel extends Model {
  /** Every request received, in order. */
  readonly requests: ModelRequest[];
}

/**
 * A model at the normalized contract that plays back scripted replies, streaming text in small chunks.
 * Pass a list (consumed in order) or a function of the request (for concurrent callers).
 */
export function scriptedModel(
  script: ScriptStep[] | ScriptStep,
  options: { id?: string } = {},
): ScriptedModel {
  const id = options.id ?? "scripted:model";
  const requests: ModelRequest[] = [];
  let calls = 0;
  const next = (request: ModelRequest, call: number): ScriptedReply | Promise<ScriptedReply> => {
    const step = Array.isArray(script) ? script[call] : script;
    if (step === undefined) return { error: { message: `scripted model has no reply #${call + 1}` } };
    return typeof step === "function" ? step(request, call) : step;
  };
  return {
    id,
    requests,
    stream(request: ModelRequest, signal?: AbortSignal): ModelStream {
      const call = calls++;
      requests.push(structuredClone(request));
      const stream = new ScriptedStream();
      void play(stream, id, () => next(request, call), signal);
      return stream;
    },
  };
}

async function play(
  stream: ScriptedStream,
  model: string,
  reply: () => ScriptedReply | Promise<ScriptedReply>,
  signal: AbortSignal | undefined,
): Promise<void> {
  const usage: Usage = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };
  const fail = (stopReason: "error" | "aborted", errorMessage: string, retryable = false) => {
    const message: AssistantMessage = {
      role: "assistant",
      content: [],
      stopReason,
      usage,
      model,
      errorMessage,
    };
    if (stopReason === "error") message.retryable = retryable;
    stream.end(message);
  };
  try {
    const script = await reply();
    if (script.delayMs) await sleep(script.delayMs, undefined, { signal });
    if (signal?.aborted) return fail("aborted", "aborted");
    Object.assign(usage, { input: 10, output: 10 }, script.usage);
    stream.state = feedbackOf(script);
    if (script.error) return fail("error", script.error.message, script.error.retryable ?? false);
    const content: AssistantMessage["content"] = [];
    if (script.reasoning) {
      stream.push({ type: "reasoning_delta", delta: script.reasoning });
      content.push({ type: "reasoning", text: script.reasoning });
    }
    if (script.text) {
      for (const chunk of script.text.match(/[\s\S]{1,16}/g) ?? [])
        stream.push({ type: "text_delta", delta: chunk });
      content.push({ type: "text", text: script.text });
    }
    let index = 0;
    for (const call of script.toolCalls ?? []) {
      const callId = call.id ?? `call_${Math.random().toString(36).slice(2, 10)}_${index++}`;
      const rawArgs = call.rawArgs ?? JSON.stringify(call.args ?? {});
      stream.push({ type: "tool_call_start", id: callId, name: call.name });
      stream.push({ type: "tool_call_delta", id: callId, delta: rawArgs });
      stream.push({ type: "tool_call_end", id: callId, name: call.name, rawArgs });
      const part: ToolCallPart = {
        type: "tool_call",
        id: callId,
        name: call.name,
        args: parseOrUndefined(rawArgs),
        rawArgs,
      };
      content.push(part);
    }
    stream.push({ type: "usage", usage });
    const stopReason = script.toolCalls?.length ? "tool_calls" : "stop";
    stream.end({ role: "assistant", content, stopReason, usage, model });
  } catch (error) {
    if (signal?.aborted) return fail("aborted", "aborted");
    fail("error", errorMessage(error));
  }
}

function feedbackOf(script: ScriptedReply): CallFeedback {
  const feedback: CallFeedback = { throttled: script.error?.throttled === true };
  if (script.error?.retryAfterMs !== undefined) feedback.retryAfterMs = script.error.retryAfterMs;
  if (script.rateLimits !== undefined) feedback.rateLimits = script.rateLimits;
  return feedback;
}

function parseOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
