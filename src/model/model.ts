import type { CapacityWaitReason } from "./capacity.ts";
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
  /**
   * The call waits before it is sent (the endpoint's limiter): `limit` calls may be in flight at once,
   * `inFlight` are, `waiting` wait (this one included). Announced again every half minute while it waits.
   */
  | {
      type: "capacity_wait";
      reason: CapacityWaitReason;
      limit: number;
      inFlight: number;
      waiting: number;
      /** When the wait has a known end (`retry_after`, `rate_limit`): milliseconds until then. */
      resumeInMs?: number;
    }
  /** The waiting call is sent now, after `waitedMs`. */
  | { type: "capacity_granted"; waitedMs: number; limit: number; inFlight: number }
  /**
   * The provider sent something that is no part of the answer (a ping, a lifecycle event): the stream
   * is not stalled. At most about once a second; `withRetry`'s idle watchdog takes it and passes it on
   * to no one.
   */
  | { type: "alive" }
  | { type: "done"; message: AssistantMessage };

/** The events of a call's retries and capacity waits, which the loop passes on to the run as they are. */
export type ModelCallEvent = Extract<ModelEvent, { type: "retry" | "capacity_wait" | "capacity_granted" }>;

/** Whether an event is part of the answer (so a retry would duplicate it), not news about the call. */
export function carriesContent(event: ModelEvent): boolean {
  return (
    event.type !== "retry" &&
    event.type !== "capacity_wait" &&
    event.type !== "capacity_granted" &&
    event.type !== "alive"
  );
}

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
