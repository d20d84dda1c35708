import { type AssistantMessage, assistantText, toolCalls } from "../model/messages.ts";

/**
 * Why a final reply gives the caller nothing, or undefined when it has text. A reply without text or
 * tool calls (only whitespace, or only reasoning) would end the run as "completed" with no answer, and
 * a script or a parent agent would take the silence for one; it is an error instead, with the reply
 * kept in the transcript so a resume continues after it.
 */
export function emptyReplyError(message: AssistantMessage): string | undefined {
  if (assistantText(message).trim() !== "" || toolCalls(message).length > 0) return undefined;
  if (message.stopReason === "length")
    return "The model's reply was cut at its output token limit before any text or tool call, so the run has no answer. Try again, ask for a shorter answer, or raise the model's output limit.";
  return `The model's reply was empty (no text, no tool call), so the run has no answer. Try again (the conversation is kept), or pick another model.`;
}
