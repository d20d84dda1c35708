import { z } from "zod";

/**
 * What the test model server answers to one request, in protocol-neutral terms.
 * The protocol writers turn it into Anthropic or OpenAI wire bytes.
 */
export const serverReplySchema = z.strictObject({
  /** Streamed as several text deltas. */
  text: z.string().optional(),
  /**
   * Anthropic: a thinking block with a signature. OpenAI Responses: a reasoning item with this summary
   * (`""`: none) and encrypted content. Chat Completions: ignored.
   */
  reasoning: z.string().optional(),
  /** Several per message allowed; arguments are streamed in several chunks. */
  toolCalls: z
    .array(
      z.strictObject({
        id: z.string().optional(),
        name: z.string().min(1),
        args: z.unknown().optional(),
        /** Sent verbatim instead of JSON.stringify(args); use it for malformed JSON. */
        rawArgs: z.string().optional(),
      }),
    )
    .optional(),
  /**
   * `input` counts uncached input tokens (Anthropic `input_tokens`); OpenAI's `prompt_tokens` /
   * `input_tokens` is sent as input + cacheRead (+ cacheWrite), because OpenAI counts cached tokens
   * inside it. Chat Completions has no cache writes; the Responses API sends `cache_write_tokens`.
   */
  usage: z
    .strictObject({
      input: z.number().int().nonnegative().optional(),
      output: z.number().int().nonnegative().optional(),
      cacheRead: z.number().int().nonnegative().optional(),
      cacheWrite: z.number().int().nonnegative().optional(),
    })
    .optional(),
  /** Overrides the stop reason derived from the content (`length` = Anthropic `max_tokens`). */
  stopReason: z.enum(["stop", "tool_calls", "length"]).optional(),
  /** Answer with this HTTP error status and a provider-shaped JSON error body instead of a reply. */
  status: z.number().int().min(400).max(599).optional(),
  /** The message of that error body or stream error (default: the provider's usual wording). */
  errorMessage: z.string().optional(),
  /** Extra response headers, e.g. `{ "retry-after": "1" }`. */
  headers: z.record(z.string(), z.string()).optional(),
  /** Destroy the socket after this many SSE events; a non-streaming request gets no answer at all. */
  cutAfterEvents: z.number().int().nonnegative().optional(),
  /**
   * Stream this many events, then the provider's in-stream error (Anthropic `event: error`,
   * `overloaded_error`; Responses `error` + `response.failed`; Chat Completions a `{error}` chunk)
   * instead of the rest, and end the stream.
   */
  streamErrorAfterEvents: z.number().int().nonnegative().optional(),
  /** Wait before answering. */
  delayMs: z.number().nonnegative().optional(),
  /** Wait between SSE events. */
  chunkDelayMs: z.number().nonnegative().optional(),
  /** Never answer (until the client aborts or the server closes). */
  hang: z.boolean().optional(),
  /**
   * Stream this many events, then send nothing more and keep the connection open (until the client
   * aborts or the server closes): a stream that stalls mid-message, so only an abort can end it.
   */
  hangAfterEvents: z.number().int().nonnegative().optional(),
});

export type ServerReply = z.input<typeof serverReplySchema>;
export type ServerToolCall = NonNullable<ServerReply["toolCalls"]>[number];

export interface ReplyUsage {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
}

/** Same defaults as the scripted model in `agentry-ai/testing`. */
export function replyUsage(reply: ServerReply): ReplyUsage {
  return { input: 10, output: 10, cacheRead: 0, cacheWrite: 0, ...definedOnly(reply.usage ?? {}) };
}

function definedOnly(usage: NonNullable<ServerReply["usage"]>): Partial<ReplyUsage> {
  return Object.fromEntries(Object.entries(usage).filter(([, value]) => value !== undefined));
}

export function toolCallArguments(call: ServerToolCall): string {
  return call.rawArgs ?? JSON.stringify(call.args ?? {});
}

export function replyStopReason(reply: ServerReply): "stop" | "tool_calls" | "length" {
  return reply.stopReason ?? ((reply.toolCalls?.length ?? 0) > 0 ? "tool_calls" : "stop");
}

/**
 * Splits a string into `parts` non-empty pieces on code-point boundaries, so a client must join
 * deltas to get the whole value back.
 */
export function splitIntoChunks(value: string, parts = 3): string[] {
  const points = Array.from(value);
  if (points.length === 0) return [];
  const size = Math.ceil(points.length / Math.min(parts, points.length));
  const chunks: string[] = [];
  for (let start = 0; start < points.length; start += size)
    chunks.push(points.slice(start, start + size).join(""));
  return chunks;
}
