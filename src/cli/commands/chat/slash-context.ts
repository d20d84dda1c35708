import type { CompactionOptions } from "../../../agent/compaction/compaction.ts";
import type { AgentConfig } from "../../../agent/config.ts";
import type { Model } from "../../../model/model.ts";
import type { SubagentRuntime } from "../../../subagents/index.ts";
import type { SavedCommand } from "../../custom-commands/saved-command.ts";
import type { Conversation } from "./conversation.ts";
import type { SwitchableModel } from "./switchable-model.ts";

/** What a slash command may read and change. */
export interface SlashContext {
  /** Writes a message for the user (stderr; stdout carries only the agent's answers). */
  say(text: string): void;
  conversation: Conversation;
  model: SwitchableModel;
  runtime: SubagentRuntime;
  /** Builds a model from `provider:model` or an alias; throws with a readable message when it cannot. */
  createModel(id: string): Promise<Model>;
  /** The root agent (its system prompt and tools: what a summary call sends). */
  config: AgentConfig;
  /** How conversations are compacted (`/compact`). */
  compaction: CompactionOptions;
  /** Aborted by Ctrl-C while the command runs. */
  signal: AbortSignal;
  /** Saved commands (`.claude/commands/*.md` …), which `/help` lists. */
  savedCommands?: readonly SavedCommand[];
  /** Before `/compact` compacts (PreCompact hooks, `manual`). */
  beforeCompact?: (sessionId: string, focus: string) => Promise<void>;
}

export type SlashOutcome = "exit" | "continue";
