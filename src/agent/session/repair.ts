import {
  type Message,
  type ToolCallPart,
  type ToolResultMessage,
  type ToolResultPart,
  toolCalls,
  type UserMessage,
} from "../../model/messages.ts";
import { INTERRUPTED_RESULT } from "../tool-calls/tool-call-errors.ts";

/** Error results for calls that will never run, so every tool call in the transcript has its result. */
export function closeToolCalls(calls: readonly ToolCallPart[], content: string): ToolResultMessage {
  return { role: "tool_result", content: calls.map((call) => closedResult(call, content)) };
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

/**
 * The history as a provider accepts it: every tool call answered in the message right after it, in
 * call order, and no result without its call. Providers answer 400 to anything else, and a transcript
 * can hold it: a process killed while tools ran, after which a prompt was appended (older agentry did
 * that on resume), or a line the reader had to skip. Nothing is dropped: a missing result becomes an
 * "interrupted" error result, and a result whose call is gone becomes a user note carrying its text.
 * Returns `messages` itself when it is already well paired.
 */
export function pairToolCalls(messages: readonly Message[]): readonly Message[] {
  let changed = false;
  const out: Message[] = [];
  for (let index = 0; index < messages.length; index++) {
    const message = messages[index] as Message;
    if (message.role === "tool_result") {
      // Reached only when the message before it made no calls: its results answer nothing.
      out.push(strayResultsNote(message.content));
      changed = true;
      continue;
    }
    out.push(message);
    const calls = message.role === "assistant" ? toolCalls(message) : [];
    if (calls.length === 0) continue;
    const next = messages[index + 1];
    const given = next?.role === "tool_result" ? next.content : [];
    if (next?.role === "tool_result") index++;
    const byId = new Map<string, ToolResultPart>();
    for (const result of given) if (!byId.has(result.toolCallId)) byId.set(result.toolCallId, result);
    const paired = calls.map((call) => byId.get(call.id) ?? closedResult(call, INTERRUPTED_RESULT));
    const ids = new Set(calls.map((call) => call.id));
    const stray = given.filter(
      (result) => !ids.has(result.toolCallId) || byId.get(result.toolCallId) !== result,
    );
    const sameAsGiven = given.length === paired.length && paired.every((result, i) => result === given[i]);
    if (sameAsGiven && next !== undefined) out.push(next);
    else {
      out.push({ role: "tool_result", content: paired });
      changed = true;
    }
    if (stray.length > 0) {
      out.push(strayResultsNote(stray));
      changed = true;
    }
  }
  return changed ? out : messages;
}

function closedResult(call: ToolCallPart, content: string): ToolResultPart {
  return { type: "tool_result", toolCallId: call.id, toolName: call.name, content, isError: true };
}

/** Results whose call is not in the history: kept as text, since a provider refuses them as results. */
function strayResultsNote(results: readonly ToolResultPart[]): UserMessage {
  const parts = results.map(
    (result) =>
      `[${result.toolName} ${result.isError ? "error" : "result"} for call ${result.toolCallId}]\n${result.content}`,
  );
  return {
    role: "user",
    content: [
      {
        type: "text",
        text: `(Tool results whose call is missing from the transcript, kept as text:)\n\n${parts.join("\n\n")}`,
      },
    ],
  };
}
