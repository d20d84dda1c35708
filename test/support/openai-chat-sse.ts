import { openaiErrorBody } from "./openai-errors.ts";
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
export interface OpenAIChatReplyContext {
  model: string;
  /** Index of the scripted step; used to make ids unique and deterministic. */
  call: number;
  /** `stream_options.include_usage` was set: every chunk carries `usage: null`, then a usage chunk. */
  includeUsage: boolean;
}

/** The SSE events of a streamed Chat Completions reply, ending with `data: [DONE]`. */
export function openaiChatStreamEvents(reply: ServerReply, context: OpenAIChatReplyContext): SseEvent[] {
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
export function openaiCompletionBody(
  reply: ServerReply,
  context: Omit<OpenAIChatReplyContext, "includeUsage">,
) {
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

/** The `{error}` chunk the API sends when it fails after the stream has started. */
export function openaiChatStreamErrorEvent(message?: string): SseEvent {
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
