import {
  type ReplyUsage,
  replyStopReason,
  replyUsage,
  type ServerReply,
  splitIntoChunks,
  toolCallArguments,
} from "./server-reply.ts";
import type { SseEvent } from "./sse.ts";

/** Per-request values the Chat Completions wire format echoes back. */
export interface OpenAIReplyContext {
  model: string;
  /** Index of the scripted step; used to make ids unique and deterministic. */
  call: number;
  /** `stream_options.include_usage` was set: every chunk carries `usage: null`, then a usage chunk. */
  includeUsage: boolean;
}

/** The SSE events of a streamed Chat Completions reply, ending with `data: [DONE]`. */
export function openaiStreamEvents(reply: ServerReply, context: OpenAIReplyContext): SseEvent[] {
  const created = Math.floor(Date.now() / 1000);
  const events: SseEvent[] = [];
  const chunk = (choices: unknown[], usage?: unknown) =>
    events.push({
      data: JSON.stringify({
        id: completionId(context),
        object: "chat.completion.chunk",
        created,
        model: context.model,
        system_fingerprint: "fp_test",
        choices,
        ...(context.includeUsage ? { usage: usage ?? null } : {}),
      }),
    });
  const delta = (value: Record<string, unknown>, finishReason: string | null = null) =>
    chunk([{ index: 0, delta: value, logprobs: null, finish_reason: finishReason }]);

  const toolCalls = reply.toolCalls ?? [];
  let roleSent = false;
  if (reply.text !== undefined || toolCalls.length === 0) {
    delta({ role: "assistant", content: "", refusal: null });
    roleSent = true;
    for (const content of splitIntoChunks(reply.text ?? "")) delta({ content });
  }
  for (const [index, call] of toolCalls.entries()) {
    const opening = {
      index,
      id: call.id ?? callId(context, index),
      type: "function",
      function: { name: call.name, arguments: "" },
    };
    delta(roleSent ? { tool_calls: [opening] } : { role: "assistant", content: null, tool_calls: [opening] });
    roleSent = true;
    for (const args of splitIntoChunks(toolCallArguments(call)))
      delta({ tool_calls: [{ index, function: { arguments: args } }] });
  }
  delta({}, finishReasons[replyStopReason(reply)]);
  if (context.includeUsage) chunk([], usageBody(replyUsage(reply)));
  events.push({ data: "[DONE]" });
  return events;
}

/** The JSON body of a non-streaming Chat Completions reply. */
export function openaiCompletionBody(reply: ServerReply, context: Omit<OpenAIReplyContext, "includeUsage">) {
  const toolCalls = (reply.toolCalls ?? []).map((call, index) => ({
    id: call.id ?? callId(context, index),
    type: "function",
    function: { name: call.name, arguments: toolCallArguments(call) },
  }));
  return {
    id: completionId(context),
    object: "chat.completion",
    created: Math.floor(Date.now() / 1000),
    model: context.model,
    system_fingerprint: "fp_test",
    choices: [
      {
        index: 0,
        message: {
          role: "assistant",
          content: reply.text ?? null,
          refusal: null,
          ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
          annotations: [],
        },
        logprobs: null,
        finish_reason: finishReasons[replyStopReason(reply)],
      },
    ],
    usage: usageBody(replyUsage(reply)),
  };
}

const errorShapes: Record<number, { type: string; code: string | null; message: string }> = {
  400: { type: "invalid_request_error", code: null, message: "Invalid request" },
  401: { type: "invalid_request_error", code: "invalid_api_key", message: "Incorrect API key provided." },
  403: { type: "invalid_request_error", code: "unsupported_country_region_territory", message: "Forbidden" },
  404: { type: "invalid_request_error", code: "model_not_found", message: "The model does not exist." },
  429: { type: "requests", code: "rate_limit_exceeded", message: "Rate limit reached for requests" },
  500: {
    type: "server_error",
    code: null,
    message: "The server had an error while processing your request. Sorry about that!",
  },
  503: {
    type: "server_error",
    code: null,
    message: "The engine is currently overloaded, please try again later",
  },
};

/** An OpenAI error body: `{error:{message, type, param, code}}`. */
export function openaiErrorBody(status: number, message?: string): unknown {
  const shape = errorShapes[status] ?? errorShapes[status >= 500 ? 500 : 400]!;
  return { error: { message: message ?? shape.message, type: shape.type, param: null, code: shape.code } };
}

/** The `{error}` chunk the API sends when it fails after the stream has started. */
export function openaiStreamErrorEvent(message?: string): SseEvent {
  return { data: JSON.stringify(openaiErrorBody(500, message)) };
}

const finishReasons = { stop: "stop", tool_calls: "tool_calls", length: "length" } as const;

function usageBody(usage: ReplyUsage): unknown {
  const prompt = usage.input + usage.cacheRead;
  return {
    prompt_tokens: prompt,
    completion_tokens: usage.output,
    total_tokens: prompt + usage.output,
    prompt_tokens_details: { cached_tokens: usage.cacheRead, audio_tokens: 0 },
    completion_tokens_details: {
      reasoning_tokens: 0,
      audio_tokens: 0,
      accepted_prediction_tokens: 0,
      rejected_prediction_tokens: 0,
    },
  };
}

function completionId(context: { call: number }): string {
  return `chatcmpl-test${context.call}`;
}

function callId(context: { call: number }, index: number): string {
  return `call_test_${context.call}_${index}`;
}
