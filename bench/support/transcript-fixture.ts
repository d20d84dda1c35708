import { Session } from "../../src/agent/session/session.ts";
import type { Message } from "../../src/model/messages.ts";

/** ~1,000 characters of tool output: a plausible file excerpt. */
const OUTPUT = Array.from(
  { length: 25 },
  (_, i) => `${String(i + 1).padStart(4)}  export const value${i} = compute(${i}); // line`,
).join("\n");

/**
 * A conversation of exactly `count` messages (even, ≥ 2): the prompt, then turns of an assistant
 * message (text + one tool call) and its tool result, then a user message to answer.
 */
export function conversation(count: number): Message[] {
  if (!Number.isInteger(count) || count < 2 || count % 2 !== 0)
    throw new Error(`conversation: count must be an even number ≥ 2, got ${count}`);
  const messages: Message[] = [
    { role: "user", content: [{ type: "text", text: "Read the project and summarize it." }] },
  ];
  for (let i = 0; messages.length < count - 1; i++) {
    const id = `toolu_prefill_${i}`;
    const args = { path: `src/module-${i}.ts` };
    messages.push({
      role: "assistant",
      content: [
        { type: "text", text: `Reading src/module-${i}.ts next.` },
        { type: "tool_call", id, name: "read", args, rawArgs: JSON.stringify(args) },
      ],
      stopReason: "tool_calls",
      usage: { input: 1000 + i, output: 40, cacheRead: 0, cacheWrite: 0 },
      model: "bench:instant",
    });
    messages.push({
      role: "tool_result",
      content: [{ type: "tool_result", toolCallId: id, toolName: "read", content: OUTPUT, isError: false }],
    });
  }
  messages.push({ role: "user", content: [{ type: "text", text: "Continue." }] });
  return messages;
}

/** A stored session holding `conversation(count)`, resumed from its transcript as `--resume` would. */
export async function resumedSession(workspace: string, count: number): Promise<Session> {
  const created = await Session.create({ workspace, agentName: "main", model: "bench:instant" });
  for (const message of conversation(count)) await created.append(message);
  return Session.resume(workspace, created.id);
}
