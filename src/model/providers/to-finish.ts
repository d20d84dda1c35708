import type { LanguageModelV4FinishReason, LanguageModelV4Usage } from "@ai-sdk/provider";
import type { StopReason, Usage } from "../messages.ts";

/** `input` is uncached input only, so input + cacheRead + cacheWrite is the whole prompt. */
export function toUsage(usage: LanguageModelV4Usage | undefined): Usage {
  const cacheRead = usage?.inputTokens.cacheRead ?? 0;
  const cacheWrite = usage?.inputTokens.cacheWrite ?? 0;
  const total = usage?.inputTokens.total;
  const input =
    usage?.inputTokens.noCache ?? (total === undefined ? 0 : Math.max(0, total - cacheRead - cacheWrite));
  return { input, output: usage?.outputTokens.total ?? 0, cacheRead, cacheWrite };
}

/** How a stream's finish ends our message: a stop reason, or why it is a failure. */
export type FinishOutcome =
  | { ok: true; stopReason: Extract<StopReason, "stop" | "tool_calls" | "length"> }
  | { ok: false; errorMessage: string; retryable: boolean };

/** A reply that stopped without its end marker is never passed off as complete. */
export function incompleteStream(detail?: string): string {
  return `the provider's stream ended before the message was complete${detail ? ` (${detail})` : ""}. Try again.`;
}

/**
 * Tool calls win over the provider's reason (some OpenAI-compatible servers say "stop" after tool calls),
 * except `length`: a reply cut by the token limit may hold a truncated call, and the loop must know.
 */
export function toFinishOutcome(finish: LanguageModelV4FinishReason, hasToolCalls: boolean): FinishOutcome {
  switch (finish.unified) {
    case "length":
      return { ok: true, stopReason: "length" };
    case "interrupted":
      return { ok: false, errorMessage: incompleteStream(), retryable: true };
    case "content-filter":
      return {
        ok: false,
        errorMessage:
          "the provider's content filter stopped the reply. Rephrase the request or use another model.",
        retryable: false,
      };
    case "error":
      return {
        ok: false,
        errorMessage: `the provider ended the reply with an error (finish reason ${finish.raw ?? "error"}). Try again.`,
        retryable: true,
      };
    default:
      return { ok: true, stopReason: hasToolCalls ? "tool_calls" : "stop" };
  }
}
