import type { CompactionTrigger } from "../contracts/events.ts";
import type { Outcome } from "../contracts/outcome.ts";
import type { Message, ToolCallPart, ToolResultPart, UserMessage } from "../model/messages.ts";
import type { Model, ModelRequest } from "../model/model.ts";
import type { AgentIdentity, AnyTool } from "../tools/tool.ts";
import type { CompactionDecision } from "./compaction/compaction.ts";
import type { ContextSize } from "./compaction/context-size.ts";
import type { EventBody } from "./emitter.ts";

export interface HookContext {
  agent: AgentIdentity;
  turn: number;
  signal: AbortSignal;
  /** Emits an event of this agent into the run's stream (its `agentPath` added), e.g. a hook's run. */
  emit?: (event: EventBody) => void;
  /**
   * Ends the run once its current step is over (the tool calls running finish; no model call follows):
   * its outcome is `completed` with `stopReason` (Claude Code's `continue: false`).
   */
  stop?: (reason: string) => void;
}

export interface BeforeModelCallResult {
  /** Extra sections appended to the system prompt for this call only. */
  systemSections?: string[];
  /**
   * Tools not offered to the model on this call (by name); they still run if it calls them. Each
   * change of the offered list costs the provider's prompt cache everything after the tools.
   */
  hiddenTools?: readonly string[];
  /**
   * Tools offered on this call besides the agent's own (e.g. tools an MCP server listed after the run
   * started); the model may call them like the others. A name the agent already has is ignored.
   */
  extraTools?: readonly AnyTool[];
  /** Messages appended to the transcript (and persisted) before the call, e.g. task notifications. */
  inject?: UserMessage[];
  /**
   * Replace the older part of the history by a summary before the call, or say why it cannot be
   * (`compactionHooks` decides; the loop carries it out with `applyCompaction`, before `inject`).
   */
  compaction?: CompactionDecision;
}

/** What `beforeModelCall` sees besides the common context. */
export interface BeforeModelCallContext extends HookContext {
  request: ModelRequest;
  /** The session's messages as they are now (earlier hooks' injections included). */
  messages: readonly Message[];
  /** The model the call goes to. */
  model: Model;
  /** The prompt's size now, measured from the provider's report of the last call (`measureContext`). */
  context(): ContextSize;
}

/**
 * A `beforeToolCall` verdict. `allow` with `approve` answers the call's own permission prompts (never a
 * deny rule, a mode's refusal, a protected path or leaving the sandbox or the workspace: see the gate).
 * `args` replaces the call's arguments; they are validated again, and an invalid replacement fails the
 * call.
 */
export type ToolDecision =
  | { action: "allow"; approve?: boolean; args?: unknown }
  | { action: "deny"; reason: string }
  | { action: "ask"; reason?: string; args?: unknown };

export interface TurnEndResult {
  /**
   * When the model stopped calling tools: messages to append so the run takes another turn instead
   * of ending (e.g. background children that finished).
   */
  inject?: UserMessage[];
}

/** Typed policy entry points. Several hook sets run in order; the first deny wins. */
export interface Hooks {
  beforeModelCall?(
    ctx: BeforeModelCallContext,
  ): Promise<BeforeModelCallResult | undefined> | BeforeModelCallResult | undefined;
  beforeToolCall?(
    ctx: HookContext & { call: ToolCallPart; tool: AnyTool },
  ): Promise<ToolDecision | undefined> | ToolDecision | undefined;
  afterToolCall?(
    ctx: HookContext & { call: ToolCallPart; result: ToolResultPart },
  ): Promise<ToolResultPart | undefined> | ToolResultPart | undefined;
  onTurnEnd?(
    ctx: HookContext & { toolCallsMade: boolean; finalText: string },
  ): Promise<TurnEndResult | undefined> | TurnEndResult | undefined;
  /** Before a compaction decided by a `beforeModelCall` hook is carried out (observing only). */
  beforeCompaction?(ctx: HookContext & { trigger: CompactionTrigger; focus?: string }): Promise<void> | void;
  /**
   * Once, as the run ends for any reason, before its outcome is recorded and `agent_end` is sent.
   * Awaited: a hook may let work the agent started record its own end first (bounded by the hook).
   */
  onRunEnd?(ctx: {
    agent: AgentIdentity;
    signal: AbortSignal;
    status: Outcome["status"];
    emit?: (event: EventBody) => void;
  }): Promise<void> | void;
}
