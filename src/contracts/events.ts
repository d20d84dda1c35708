import type { CapacityWaitReason } from "../model/capacity.ts";
import type { AssistantMessage, ToolResultMessage, Usage, UserMessage } from "../model/messages.ts";
import type { Outcome } from "./outcome.ts";

/**
 * One closed union of everything a run reports. Every event carries `agentPath`
 * (e.g. ["main", "explore-2"]) so a child's events bubble into the root's stream and any UI can
 * draw the tree. The `stream-json` output prints these as JSON lines (schema version in
 * `EVENT_SCHEMA_VERSION`; documented in the README).
 */
export const EVENT_SCHEMA_VERSION = 1;

interface Base {
  agentPath: string[];
}

export type AgentEvent = Base &
  (
    | {
        type: "agent_start";
        sessionId: string;
        parentSessionId?: string;
        agentType: string;
        model: string;
        description?: string;
      }
    | { type: "turn_start"; turn: number }
    | { type: "text_delta"; delta: string }
    | { type: "reasoning_delta"; delta: string }
    | { type: "user_message"; message: UserMessage }
    | { type: "assistant_message"; message: AssistantMessage }
    | { type: "tool_start"; toolCallId: string; name: string; args: unknown }
    | { type: "tool_progress"; toolCallId: string; name: string; update: string }
    | {
        type: "tool_end";
        toolCallId: string;
        name: string;
        isError: boolean;
        /** At most a few hundred characters, for display. */
        preview: string;
        durationMs: number;
      }
    | { type: "tool_results"; message: ToolResultMessage }
    | { type: "retry"; attempt: number; delayMs: number; error: string }
    /** The model call waits for its endpoint's capacity (`limit` calls in flight at once); repeated while it waits. */
    | {
        type: "capacity_wait";
        reason: CapacityWaitReason;
        limit: number;
        inFlight: number;
        waiting: number;
        resumeInMs?: number;
      }
    | { type: "capacity_granted"; waitedMs: number; limit: number; inFlight: number }
    | {
        type: "usage_estimate";
        /**
         * Estimated tokens of the model call in flight: its prompt and the output streamed so far.
         * Sent as the call starts and as it grows; its `turn_end` replaces it with the real usage.
         */
        tokens: number;
      }
    | { type: "turn_end"; turn: number; usage: Usage }
    | { type: "agent_end"; outcome: Outcome }
  );

export type AgentEventType = AgentEvent["type"];

/** Narrows an event by its tag. */
export type EventOf<T extends AgentEventType> = Extract<AgentEvent, { type: T }>;
