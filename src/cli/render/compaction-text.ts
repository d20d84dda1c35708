import type { EventOf } from "../../contracts/events.ts";

/** An event with or without its `agentPath` (`/compact` runs outside an agent's run). */
type Body<T extends "compaction_start" | "compacted" | "compaction_failed"> = Omit<EventOf<T>, "agentPath">;

import { formatDuration } from "../../text/format-duration.ts";
import { formatTokens, shortModel } from "./agent-tree-view.ts";

/** `compacting the conversation (164k tokens, 82% of 200k)` */
export function compactionStartText(event: Body<"compaction_start">): string {
  return `compacting the conversation (${formatTokens(event.tokens)} tokens, ${share(event.tokens, event.contextWindow)} of ${formatTokens(event.contextWindow)})`;
}

/** `164k → 31k tokens: 48 messages summarized by claude-haiku-4-5 in 12s` */
export function compactedText(event: Body<"compacted">): string {
  const plural = event.replacedMessages === 1 ? "" : "s";
  return `${formatTokens(event.tokensBefore)} → ${formatTokens(event.tokensAfter)} tokens: ${event.replacedMessages} message${plural} summarized by ${shortModel(event.model)} in ${formatDuration(event.durationMs)}`;
}

/** `could not compact the conversation (…): the summary call failed: 529 overloaded; it goes on as it was` */
export function compactionFailedText(event: Body<"compaction_failed">): string {
  return `could not compact the conversation: ${event.error}; it goes on as it was`;
}

function share(tokens: number, window: number): string {
  return `${Math.round((tokens / Math.max(1, window)) * 100)}%`;
}
