import type { Message } from "../../model/messages.ts";
import { type ContextSize, messagesTokens } from "./context-size.ts";

/** What a summary is expected to cost in the compacted prompt, for planning (its real size is measured after). */
export const PLANNED_SUMMARY_TOKENS = 2_000;

export interface PlanOptions {
  /** Assistant turns to keep verbatim at most (each with its tool results and what follows it). */
  keepTurns: number;
  /** The prompt's size as measured now, with its rate of tokens per character. */
  size: ContextSize;
  /** Tokens the compacted prompt should fit in; fewer turns are kept to get there. */
  target: number;
  /**
   * Tokens the compacted prompt must be under, or the compaction is not worth a call (the next call
   * would compact again); undefined to compact whatever it gives (a compaction the user asked for).
   */
  limit?: number;
}

export type CompactionPlan =
  | {
      kind: "compact";
      /** `messages[0, cut)` are replaced; `messages[cut]` is an assistant message, the first one kept. */
      cut: number;
      keptTurns: number;
      /** The compacted prompt's planned size (summary at `PLANNED_SUMMARY_TOKENS`). */
      tokensAfter: number;
    }
  | { kind: "cannot_shrink"; reason: string };

/**
 * Where to cut a history so the older part can be replaced by a summary. The kept part starts at an
 * assistant message, so a tool call is never separated from its results (they follow it) and the
 * summary (a user message) is followed by the assistant's turn, as providers expect. It keeps the
 * last `keepTurns` assistant turns, or fewer when that is what brings the prompt down to `target`;
 * at least two messages are replaced (one would be the previous summary alone, or the first prompt).
 */
export function planCompaction(messages: readonly Message[], options: PlanOptions): CompactionPlan {
  const { size } = options;
  const turns = messages.flatMap((message, index) => (message.role === "assistant" ? [index] : []));
  const keepAtMost = Math.max(1, Math.floor(options.keepTurns));
  let fallback: { cut: number; keptTurns: number; tokensAfter: number } | undefined;
  for (let keep = Math.min(keepAtMost, turns.length); keep >= 1; keep--) {
    const cut = turns[turns.length - keep] as number;
    if (cut < 2) continue;
    const tokensAfter =
      size.fixedTokens +
      PLANNED_SUMMARY_TOKENS +
      messagesTokens(messages, cut, messages.length, size.tokensPerChar);
    if (tokensAfter <= options.target) return { kind: "compact", cut, keptTurns: keep, tokensAfter };
    fallback = { cut, keptTurns: keep, tokensAfter };
  }
  if (fallback === undefined) {
    return {
      kind: "cannot_shrink",
      reason: "nothing is older than the latest turn, which is kept as it is",
    };
  }
  if (options.limit !== undefined && fallback.tokensAfter >= options.limit) {
    return {
      kind: "cannot_shrink",
      reason: `the latest turn alone is about ${fallback.tokensAfter - size.fixedTokens - PLANNED_SUMMARY_TOKENS} tokens, too many to get under ${options.limit} with a summary`,
    };
  }
  return { kind: "compact", ...fallback };
}
