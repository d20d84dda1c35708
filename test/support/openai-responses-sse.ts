import {
  type ReplyUsage,
  replyStopReason,
  replyUsage,
  type ServerReply,
  splitIntoChunks,
  toolCallArguments,
} from "./server-reply.ts";
import type { SseEvent } from "./sse.ts";

/** Per-request values the Responses wire format echoes back. */
export interface ResponsesReplyContext {
  /** Index of the scripted step; used to make ids unique and deterministic. */
  call: number;
  /** The request body: `model`, `store`, `include`, `tools`… are echoed in the response object. */
  request: Record<string, unknown>;
}

/**
 * The encrypted content the server gives a reasoning item, and checks when it comes back. Like
 * OpenAI's, it is bound to the item: content sent back under another id does not verify.
 */
export function encryptedReasoning(itemId: string): string {
  return Buffer.from(`test-encrypted:${itemId}`).toString("base64");
}

/**
 * The SSE events of a streamed Responses API reply, as OpenAI sends them: every event named by an
 * `event:` line and carrying its `type` and `sequence_number`; output items (reasoning, message,
 * function calls) opened, streamed and closed in order; `response.completed` (or `response.incomplete`
 * for a reply cut by the token limit) with the whole response and its usage last.
 */
export function responsesStreamEvents(reply: ServerReply, context: ResponsesReplyContext): SseEvent[] {
  const events: SseEvent[] = [];
  const emit = (type: string, fields: Record<string, unknown>) =>
    events.push({ event: type, data: JSON.stringify({ type, sequence_number: events.length, ...fields }) });

  emit("response.created", { response: responseObject(context, "in_progress", []) });
  emit("response.in_progress", { response: responseObject(context, "in_progress", []) });
  const output = outputItems(reply, context);
  for (const [index, item] of output.entries()) {
    const at = { output_index: index };
    const itemFields = { item_id: item.id, output_index: index };
    switch (item.type) {
      case "reasoning": {
        // The encrypted content comes with the finished item only.
        emit("response.output_item.added", {
          ...at,
          item: { ...item, encrypted_content: null, summary: [] },
        });
        for (const [summaryIndex, summary] of item.summary.entries()) {
          const part = { ...itemFields, summary_index: summaryIndex };
          emit("response.reasoning_summary_part.added", {
            ...part,
            part: { type: "summary_text", text: "" },
          });
          for (const delta of splitIntoChunks(summary.text))
            emit("response.reasoning_summary_text.delta", { ...part, delta });
          emit("response.reasoning_summary_text.done", { ...part, text: summary.text });
          emit("response.reasoning_summary_part.done", { ...part, part: summary });
        }
        emit("response.output_item.done", { ...at, item });
        break;
      }
      case "message": {
        const text = item.content[0]?.text ?? "";
        const content = { ...itemFields, content_index: 0 };
        emit("response.output_item.added", {
          ...at,
          item: { ...item, status: "in_progress", content: [] },
        });
        emit("response.content_part.added", { ...content, part: outputText("") });
        for (const delta of splitIntoChunks(text))
          emit("response.output_text.delta", { ...content, delta, logprobs: [] });
        emit("response.output_text.done", { ...content, text, logprobs: [] });
        emit("response.content_part.done", { ...content, part: outputText(text) });
        emit("response.output_item.done", { ...at, item });
        break;
      }
      case "function_call":
        emit("response.output_item.added", {
          ...at,
          item: { ...item, status: "in_progress", arguments: "" },
        });
        for (const delta of splitIntoChunks(item.arguments))
          emit("response.function_call_arguments.delta", { ...itemFields, delta });
        emit("response.function_call_arguments.done", { ...itemFields, arguments: item.arguments });
        emit("response.output_item.done", { ...at, item });
        break;
    }
  }
  const incomplete = replyStopReason(reply) === "length";
  emit(incomplete ? "response.incomplete" : "response.completed", {
    response: responseObject(
      context,
      incomplete ? "incomplete" : "completed",
      output,
      usageBody(replyUsage(reply)),
    ),
  });
  return events;
}

/** The JSON body of a non-streaming Responses API reply. */
export function responsesBody(reply: ServerReply, context: ResponsesReplyContext): unknown {
  const status = replyStopReason(reply) === "length" ? "incomplete" : "completed";
  return responseObject(context, status, outputItems(reply, context), usageBody(replyUsage(reply)));
}

/**
 * The two events OpenAI sends when a response fails after its stream started: an `error` event, then
 * `response.failed` carrying the same error. `sequenceStart` continues the numbering of what was sent.
 */
export function responsesStreamErrorEvents(
  context: ResponsesReplyContext,
  sequenceStart: number,
  message = "The server had an error while processing your request. Sorry about that!",
): SseEvent[] {
  const error = { type: "server_error", code: "server_error", message, param: null };
  const failed = { ...responseObject(context, "failed", []), error: { code: "server_error", message } };
  return [
    { event: "error", data: JSON.stringify({ type: "error", sequence_number: sequenceStart, error }) },
    {
      event: "response.failed",
      data: JSON.stringify({ type: "response.failed", sequence_number: sequenceStart + 1, response: failed }),
    },
  ];
}

type OutputItem =
  | {
      type: "reasoning";
      id: string;
      summary: Array<{ type: "summary_text"; text: string }>;
      encrypted_content?: string;
    }
  | {
      type: "message";
      id: string;
      status: "completed";
      role: "assistant";
      content: Array<ReturnType<typeof outputText>>;
    }
  | {
      type: "function_call";
      id: string;
      status: "completed";
      call_id: string;
      name: string;
      arguments: string;
    };

/** The finished output items of a reply. An empty `reasoning` is an item without a summary. */
function outputItems(reply: ServerReply, context: ResponsesReplyContext): OutputItem[] {
  const items: OutputItem[] = [];
  const { call } = context;
  if (reply.reasoning !== undefined) {
    const id = `rs_test_${call}`;
    items.push({
      type: "reasoning",
      id,
      summary: reply.reasoning ? [{ type: "summary_text", text: reply.reasoning }] : [],
      // Sent only when asked for, as OpenAI does: `include: ["reasoning.encrypted_content"]`.
      ...(wantsEncryptedReasoning(context.request) ? { encrypted_content: encryptedReasoning(id) } : {}),
    });
  }
  const toolCalls = reply.toolCalls ?? [];
  if (reply.text !== undefined || toolCalls.length === 0)
    items.push({
      type: "message",
      id: `msg_test_${call}`,
      status: "completed",
      role: "assistant",
      content: [outputText(reply.text ?? "")],
    });
  for (const [index, toolCall] of toolCalls.entries())
    items.push({
      type: "function_call",
      id: `fc_test_${call}_${index}`,
      status: "completed",
      call_id: toolCall.id ?? `call_test_${call}_${index}`,
      name: toolCall.name,
      arguments: toolCallArguments(toolCall),
    });
  return items;
}

function wantsEncryptedReasoning(request: Record<string, unknown>): boolean {
  return Array.isArray(request.include) && request.include.includes("reasoning.encrypted_content");
}

function outputText(text: string) {
  return { type: "output_text" as const, annotations: [], logprobs: [], text };
}

function responseObject(
  context: ResponsesReplyContext,
  status: "in_progress" | "completed" | "incomplete" | "failed",
  output: OutputItem[],
  usage: unknown = null,
): Record<string, unknown> {
  const { request } = context;
  return {
    id: `resp_test_${context.call}`,
    object: "response",
    created_at: Math.floor(Date.now() / 1000),
    status,
    background: false,
    error: null,
    incomplete_details: status === "incomplete" ? { reason: "max_output_tokens" } : null,
    instructions: null,
    max_output_tokens: request.max_output_tokens ?? null,
    model: typeof request.model === "string" ? request.model : "test-model",
    output,
    parallel_tool_calls: true,
    previous_response_id: null,
    reasoning: request.reasoning ?? { effort: null, summary: null },
    store: request.store ?? true,
    temperature: request.temperature ?? 1,
    text: { format: { type: "text" }, verbosity: "medium" },
    tool_choice: "auto",
    tools: request.tools ?? [],
    top_p: 1,
    truncation: "disabled",
    usage,
    user: null,
    metadata: {},
  };
}

/** OpenAI counts cached (and cache-written) tokens inside `input_tokens`. */
function usageBody(usage: ReplyUsage): unknown {
  const input = usage.input + usage.cacheRead + usage.cacheWrite;
  return {
    input_tokens: input,
    input_tokens_details: {
      cached_tokens: usage.cacheRead,
      ...(usage.cacheWrite > 0 ? { cache_write_tokens: usage.cacheWrite } : {}),
    },
    output_tokens: usage.output,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: input + usage.output,
  };
}
