import type { Message } from "../../../model/messages.ts";
import type { ModelRequest } from "../../../model/model.ts";

/** One tool call an agent made, with what it returned: what a scripted agent "knows" so far. */
export interface ToolCallRecord {
  name: string;
  args: Record<string, unknown>;
  content: string;
  isError: boolean;
}

/** The tool calls in a conversation, paired with their results, oldest first. */
export function toolHistory(messages: readonly Message[]): ToolCallRecord[] {
  const calls = new Map<string, { name: string; args: Record<string, unknown> }>();
  const records: ToolCallRecord[] = [];
  for (const message of messages) {
    if (message.role === "assistant") {
      for (const part of message.content) {
        if (part.type !== "tool_call") continue;
        const args = typeof part.args === "object" && part.args !== null ? part.args : {};
        calls.set(part.id, { name: part.name, args: args as Record<string, unknown> });
      }
    } else if (message.role === "tool_result") {
      for (const part of message.content) {
        const call = calls.get(part.toolCallId);
        records.push({
          name: call?.name ?? part.toolName,
          args: call?.args ?? {},
          content: part.content,
          isError: part.isError,
        });
      }
    }
  }
  return records;
}

/** How many replies the agent has given so far: the index of the reply being asked for. */
export function replyIndex(messages: readonly Message[]): number {
  return messages.filter((message) => message.role === "assistant").length;
}

export function firstUserText(messages: readonly Message[]): string {
  const first = messages.find((message) => message.role === "user");
  if (first?.role !== "user") return "";
  return first.content.map((part) => (part.type === "text" ? part.text : "")).join("");
}

/** Characters a provider would read for this request: system prompt, tool specs and the transcript. */
export function requestChars(request: ModelRequest): number {
  let chars = request.system.length + JSON.stringify(request.tools).length;
  for (const message of request.messages) {
    for (const part of message.content) {
      if (part.type === "text" || part.type === "reasoning") chars += part.text.length;
      else if (part.type === "tool_call") chars += part.name.length + part.rawArgs.length;
      else if (part.type === "tool_result") chars += part.content.length;
    }
  }
  return chars;
}

/** The demo's token estimate, stated wherever it is shown: one token per four characters. */
export function estimateTokens(chars: number): number {
  return Math.ceil(chars / 4);
}

/** The lines of a `read` result without their numbers (`N<tab>`), with their line numbers. */
export function readLines(content: string): Array<{ line: number; text: string }> {
  const lines: Array<{ line: number; text: string }> = [];
  for (const raw of content.split("\n")) {
    const match = /^\s*(\d+)\t(.*)$/.exec(raw);
    if (match?.[1] !== undefined) lines.push({ line: Number(match[1]), text: match[2] ?? "" });
  }
  return lines;
}

/** `path:line:text` lines of a `grep` result in content mode. */
export function grepHits(content: string): Array<{ path: string; line: number; text: string }> {
  const hits: Array<{ path: string; line: number; text: string }> = [];
  for (const raw of content.split("\n")) {
    const match = /^([^:\n]+):(\d+):(.*)$/.exec(raw);
    if (match?.[1] !== undefined) hits.push({ path: match[1], line: Number(match[2]), text: match[3] ?? "" });
  }
  return hits;
}
