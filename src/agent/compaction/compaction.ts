import type { CompactionFailure, CompactionTrigger } from "../../contracts/events.ts";
import type { Model } from "../../model/model.ts";
import type { ContextSize } from "./context-size.ts";

/** How automatic compaction behaves; every field has a default. */
export interface CompactionOptions {
  /** Share of the model's context window at which a conversation is compacted (default 0.8). */
  threshold?: number;
  /** Assistant turns kept verbatim (each with its tool results and what follows), at most (default 2). */
  keepTurns?: number;
  /** The model that writes summaries (a cheaper one, say); default the agent's own. */
  model?: Model;
  /** Tokens a prompt may hold for a `provider:model` id; default `contextWindowOf` (the built-in table). */
  contextWindow?: (modelId: string) => number;
}

export const DEFAULT_COMPACTION_THRESHOLD = 0.8;
export const DEFAULT_KEEP_TURNS = 2;

/**
 * What a `beforeModelCall` hook asks of the loop: replace `messages[0, cut)` by a summary that `model`
 * writes, or report that the conversation cannot be compacted (the history stays as it is).
 */
export type CompactionDecision =
  | {
      action: "compact";
      trigger: CompactionTrigger;
      /** The first message kept (an assistant message): `planCompaction`'s cut. */
      cut: number;
      /** The summary's author, and what its window holds. */
      model: Model;
      summaryWindow: number;
      /** The prompt as measured before compacting, and the agent's model's window. */
      size: ContextSize;
      contextWindow: number;
      /** What the user wants the summary to dwell on (`/compact <focus>`). */
      focus?: string;
    }
  | {
      action: "report";
      trigger: CompactionTrigger;
      reason: CompactionFailure;
      error: string;
      tokens: number;
      contextWindow: number;
    };
