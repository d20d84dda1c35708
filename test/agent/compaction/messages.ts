import type {
  AssistantMessage,
  Message,
  ToolResultMessage,
  Usage,
  UserMessage,
} from "../../../src/model/messages.ts";
import { userText } from "../../../src/model/messages.ts";

/** Small builders for histories in the compaction tests. */
export const user = (text: string): UserMessage => userText(text);

export function assistant(text: string, usage: Partial<Usage> = {}): AssistantMessage {
  return {
    role: "assistant",
    content: [{ type: "text", text }],
    stopReason: "stop",
    usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, ...usage },
    model: "test:model",
  };
}

export function calling(
  calls: Array<{ id: string; name?: string; args?: Record<string, unknown> }>,
  usage: Partial<Usage> = {},
): AssistantMessage {
  return {
    role: "assistant",
    content: calls.map((call) => ({
      type: "tool_call",
      id: call.id,
      name: call.name ?? "read",
      args: call.args ?? {},
      rawArgs: JSON.stringify(call.args ?? {}),
    })),
    stopReason: "tool_calls",
    usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, ...usage },
    model: "test:model",
  };
}

export function results(...parts: Array<{ id: string; content: string; name?: string }>): ToolResultMessage {
  return {
    role: "tool_result",
    content: parts.map((part) => ({
      type: "tool_result",
      toolCallId: part.id,
      toolName: part.name ?? "read",
      content: part.content,
      isError: false,
    })),
  };
}

/** `[user, (calling, results) × n]`: one prompt, then `n` tool-calling turns with `size` characters of output each. */
export function toolTurns(n: number, size = 400): Message[] {
  const messages: Message[] = [user("start")];
  for (let index = 0; index < n; index++) {
    messages.push(calling([{ id: `c${index}`, args: { path: `f${index}.ts` } }]));
    messages.push(results({ id: `c${index}`, content: `${index}:`.padEnd(size, "x") }));
  }
  return messages;
}
