import type { AssistantMessage, ToolResultMessage, Usage, UserMessage } from "../model/messages.ts";
import type { ModelCallEvent } from "../model/model.ts";
import type { Outcome } from "./outcome.ts";
import type { WorkflowEvent } from "./workflow-events.ts";

/**
 * One closed union of everything a run reports. Every event carries `agentPath`
 * (e.g. ["main", "explore-2"]) so a child's events bubble into the root's stream and any UI can
 * draw the tree. The `stream-json` output prints these as JSON lines (schema version in
 * `EVENT_SCHEMA_VERSION`; documented in docs/stream-json.md).
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
        /**
         * Where the agent runs when not in the process that reports it: `queue <name>` for a fleet
         * worker, the URL of an A2A agent. Its own events then come from there, relayed.
         */
        runsOn?: string;
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
    /** A model call retried, or waiting for its endpoint's capacity: the model's own events, passed on. */
    | ModelCallEvent
    | {
        type: "usage_estimate";
        /**
         * Estimated tokens of the model call in flight: its prompt and the output streamed so far.
         * Sent as the call starts and as it grows; its `turn_end` replaces it with the real usage.
         */
        tokens: number;
      }
    /** The conversation is being compacted: its older turns go to the model for a summary. */
    | {
        type: "compaction_start";
        trigger: CompactionTrigger;
        /** The prompt's measured size and the model's window, in tokens. */
        tokens: number;
        contextWindow: number;
        /** Messages to be replaced by the summary. */
        messages: number;
      }
    /** Older turns were replaced by a summary (the transcript keeps them and records a `compaction`). */
    | {
        type: "compacted";
        trigger: CompactionTrigger;
        tokensBefore: number;
        /** Estimated from the compacted form; the next call's usage measures it. */
        tokensAfter: number;
        contextWindow: number;
        replacedMessages: number;
        keptMessages: number;
        /** The message that replaced them, as the model reads it. */
        summary: string;
        /** The model that wrote the summary, and what its call used (counted in the agent's usage). */
        model: string;
        usage: Usage;
        durationMs: number;
      }
    /** A compaction could not be done; the conversation is exactly as it was. */
    | {
        type: "compaction_failed";
        trigger: CompactionTrigger;
        reason: CompactionFailure;
        error: string;
        tokens: number;
        contextWindow: number;
        usage: Usage;
      }
    /** A hook command ran (Claude Code's hooks: docs/hooks.md), once it ended. */
    | {
        type: "hook_run";
        /** Claude Code's event name: `PreToolUse`, `Stop`, `UserPromptSubmit` … */
        hookEvent: string;
        command: string;
        /** The file that configured it (`.claude/settings.json`, `~/.claude/settings.json`, an agent file …). */
        source: string;
        result: HookRunResult;
        /** The command's exit code, when it exited by itself. */
        exitCode?: number;
        /** What it said: the reason of a block, the error, a `systemMessage` (shortened). */
        message?: string;
        /** The tool call it ran for (PreToolUse, PostToolUse, PermissionRequest). */
        toolCallId?: string;
        /** That call's tool, as the hook saw it (`Bash`, `Write`, `mcp__server__tool`). */
        toolName?: string;
        durationMs: number;
      }
    | { type: "turn_end"; turn: number; usage: Usage }
    | { type: "agent_end"; outcome: Outcome }
    /** A workflow's progress (`workflow_start`, `workflow_phase`, `workflow_agent` …), from its own node. */
    | WorkflowEvent
  );

/** `auto`: the policy found the prompt past its share of the window; `manual`: asked for (`/compact`). */
export type CompactionTrigger = "auto" | "manual";

/**
 * `model_error`: the summary call failed or wrote nothing; `too_large`: the turns to summarize do not
 * fit the summary model's window; `cannot_shrink`: keeping the latest turn alone is already too big,
 * or nothing is older than the turns kept.
 */
export type CompactionFailure = "model_error" | "too_large" | "cannot_shrink";

/**
 * `ok`: it ran and did not object; `blocked`: it blocked what it was asked about (exit 2, a deny or
 * block decision, `continue: false`); `error`: it failed without blocking (another exit code, bad
 * output, could not start); `timeout`: it was stopped at its timeout. Neither of the last two blocks.
 */
export type HookRunResult = "ok" | "blocked" | "error" | "timeout";

export type AgentEventType = AgentEvent["type"];

/** Narrows an event by its tag. */
export type EventOf<T extends AgentEventType> = Extract<AgentEvent, { type: T }>;
