import type { AssistantMessage, Message, Usage } from "./messages.ts";

/** A JSON Schema object as sent to a provider. */
export type JsonSchema = Record<string, unknown>;

export interface ToolSpec {
  name: string;
  description: string;
  inputSchema: JsonSchema;
}

export interface ModelRequest {
  system: string;
  messages: Message[];
  tools: ToolSpec[];
  maxOutputTokens?: number;
  temperature?: number;
}

/** Normalized streaming events. The last event is always `done`, carrying the final message. */
export type ModelEvent =
  | { type: "text_delta"; delta: string }
  | { type: "reasoning_delta"; delta: string }
  | { type: "tool_call_start"; id: string; name: string }
  | { type: "tool_call_delta"; id: string; delta: string }
  | { type: "tool_call_end"; id: string; name: string; rawArgs: string }
  | { type: "usage"; usage: Usage }
  | { type: "retry"; attempt: number; delayMs: number; error: string }
  | { type: "done"; message: AssistantMessage };

/**
 * A streamed model response. Iterating it never throws: a failure is the `done` event whose message
 * has `stopReason: "error" | "aborted"`. `result()` resolves to that same final message.
 */
export interface ModelStream extends AsyncIterable<ModelEvent> {
  result(): Promise<AssistantMessage>;
}

export interface Model {
  /** `provider:model`, e.g. `anthropic:claude-sonnet-4-5`. */
  readonly id: string;
  stream(request: ModelRequest, signal?: AbortSignal): ModelStream;
}
