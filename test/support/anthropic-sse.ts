import {
  replyStopReason,
  replyUsage,
  type ServerReply,
  splitIntoChunks,
  toolCallArguments,
} from "./server-reply.ts";
import type { SseEvent } from "./sse.ts";

/** Per-request values the Anthropic wire format echoes back. */
export interface AnthropicReplyContext {
  model: string;
  /** Index of the scripted step; used to make ids unique and deterministic. */
  call: number;
}

const stopReasons = { stop: "end_turn", tool_calls: "tool_use", length: "max_tokens" } as const;

/** The SSE events of a streamed Messages API reply, in the order the real API sends them. */
export function anthropicStreamEvents(reply: ServerReply, context: AnthropicReplyContext): SseEvent[] {
  const usage = replyUsage(reply);
  const events: SseEvent[] = [];
  const push = (type: string, payload: Record<string, unknown>) =>
    events.push({ event: type, data: JSON.stringify({ type, ...payload }) });

  push("message_start", {
    message: {
      id: messageId(context),
      type: "message",
      role: "assistant",
      model: context.model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: {
        input_tokens: usage.input,
        cache_creation_input_tokens: usage.cacheWrite,
        cache_read_input_tokens: usage.cacheRead,
        output_tokens: 1,
      },
    },
  });
  push("ping", {});
  let index = 0;
  if (reply.reasoning !== undefined) {
    push("content_block_start", { index, content_block: { type: "thinking", thinking: "", signature: "" } });
    for (const thinking of splitIntoChunks(reply.reasoning))
      push("content_block_delta", { index, delta: { type: "thinking_delta", thinking } });
    push("content_block_delta", { index, delta: { type: "signature_delta", signature: signature(context) } });
    push("content_block_stop", { index });
    index++;
  }
  if (reply.text !== undefined) {
    push("content_block_start", { index, content_block: { type: "text", text: "" } });
    for (const text of splitIntoChunks(reply.text))
      push("content_block_delta", { index, delta: { type: "text_delta", text } });
    push("content_block_stop", { index });
    index++;
  }
  for (const [position, call] of (reply.toolCalls ?? []).entries()) {
    const id = call.id ?? toolUseId(context, position);
    push("content_block_start", {
      index,
      content_block: { type: "tool_use", id, name: call.name, input: {} },
    });
    // The real API opens every tool_use block with an empty partial_json.
    for (const partial_json of ["", ...splitIntoChunks(toolCallArguments(call))])
      push("content_block_delta", { index, delta: { type: "input_json_delta", partial_json } });
    push("content_block_stop", { index });
    index++;
  }
  push("message_delta", {
    delta: { stop_reason: stopReasons[replyStopReason(reply)], stop_sequence: null },
    usage: { output_tokens: usage.output },
  });
  push("message_stop", {});
  return events;
}

/** The JSON body of a non-streaming Messages API reply. */
export function anthropicMessageBody(reply: ServerReply, context: AnthropicReplyContext): unknown {
  const usage = replyUsage(reply);
  const content: unknown[] = [];
  if (reply.reasoning !== undefined)
    content.push({ type: "thinking", thinking: reply.reasoning, signature: signature(context) });
  if (reply.text !== undefined) content.push({ type: "text", text: reply.text });
  for (const [position, call] of (reply.toolCalls ?? []).entries()) {
    content.push({
      type: "tool_use",
      id: call.id ?? toolUseId(context, position),
      name: call.name,
      input: parseOrKeep(toolCallArguments(call)),
    });
  }
  return {
    id: messageId(context),
    type: "message",
    role: "assistant",
    model: context.model,
    content,
    stop_reason: stopReasons[replyStopReason(reply)],
    stop_sequence: null,
    usage: {
      input_tokens: usage.input,
      cache_creation_input_tokens: usage.cacheWrite,
      cache_read_input_tokens: usage.cacheRead,
      output_tokens: usage.output,
    },
  };
}

const errorTypes: Record<number, string> = {
  400: "invalid_request_error",
  401: "authentication_error",
  402: "billing_error",
  403: "permission_error",
  404: "not_found_error",
  413: "request_too_large",
  429: "rate_limit_error",
  500: "api_error",
  504: "timeout_error",
  529: "overloaded_error",
};

const errorMessages: Record<string, string> = {
  invalid_request_error: "Invalid request",
  authentication_error: "invalid x-api-key",
  permission_error: "Your API key does not have permission to use the specified resource.",
  not_found_error: "The requested resource could not be found.",
  request_too_large: "Request exceeds the maximum allowed number of bytes.",
  rate_limit_error: "Number of request tokens has exceeded your per-minute rate limit",
  api_error: "Internal server error",
  overloaded_error: "Overloaded",
};

/** An Anthropic error body: `{type:"error", error:{type, message}}`. */
export function anthropicErrorBody(status: number, message?: string): unknown {
  const type = errorTypes[status] ?? (status >= 500 ? "api_error" : "invalid_request_error");
  return { type: "error", error: { type, message: message ?? errorMessages[type] ?? `HTTP ${status}` } };
}

/** The `event: error` the API sends when it fails after the stream has started. */
export function anthropicStreamErrorEvent(message?: string): SseEvent {
  return {
    event: "error",
    data: JSON.stringify({
      type: "error",
      error: { type: "overloaded_error", message: message ?? "Overloaded" },
    }),
  };
}

function messageId(context: AnthropicReplyContext): string {
  return `msg_test_${context.call}`;
}

function toolUseId(context: AnthropicReplyContext, position: number): string {
  return `toolu_test_${context.call}_${position}`;
}

function signature(context: AnthropicReplyContext): string {
  return Buffer.from(`test-signature-${context.call}`).toString("base64");
}

function parseOrKeep(json: string): unknown {
  try {
    return JSON.parse(json);
  } catch {
    return json;
  }
}
