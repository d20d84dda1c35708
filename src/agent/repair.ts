import { type Message, type ToolCallPart, type ToolResultMessage, toolCalls } from "../model/messages.ts";
import { INTERRUPTED_RESULT } from "./tool-call-errors.ts";

/** Error results for calls that will never run, so every tool call in the transcript has its result. */
export function closeToolCalls(calls: readonly ToolCallPart[], content: string): ToolResultMessage {
  return {
    role: "tool_result",
    content: calls.map((call) => ({
      type: "tool_result",
      toolCallId: call.id,
      toolName: call.name,
      content,
      isError: true,
    })),
  };
}

/**
 * When a process was killed while tools ran, the transcript ends with an assistant message whose tool
 * calls have no results, which providers reject. Returns the results that close those calls.
 */
export function interruptedToolResults(messages: readonly Message[]): ToolResultMessage | undefined {
  const last = messages.at(-1);
  if (last?.role !== "assistant") return undefined;
  const calls = toolCalls(last);
  return calls.length > 0 ? closeToolCalls(calls, INTERRUPTED_RESULT) : undefined;
}
