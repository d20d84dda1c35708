import type { AssistantMessage, Message, UserMessage } from "../../model/messages.ts";

/** How much of the caller's history a child starts with. */
export type ForkMode = "none" | "all" | number;

/**
 * The history a forked child starts with: the caller's user messages and the final assistant text of
 * each turn, without reasoning, tool calls or tool results (DESIGN §3 "Fork"). A number keeps only the
 * last N turns, where a turn starts at a user message. `none` keeps nothing (the default: a fresh
 * context and a stable, cacheable prompt prefix).
 */
export function forkHistory(messages: readonly Message[], mode: ForkMode): Message[] {
  if (mode === "none") return [];
  const turns = splitTurns(messages).map(sanitizeTurn);
  const kept = mode === "all" ? turns : mode > 0 ? turns.slice(-mode) : [];
  return kept.flat();
}

/** Parses a `fork` value from a definition or a call: "none", "all" or a positive whole number of turns. */
export function parseForkMode(value: unknown): ForkMode | undefined {
  if (value === undefined || value === null) return undefined;
  if (value === "none" || value === "all") return value;
  const turns = typeof value === "string" && /^\d+$/.test(value) ? Number(value) : value;
  if (typeof turns === "number" && Number.isInteger(turns) && turns >= 0) return turns === 0 ? "none" : turns;
  throw new Error(`fork must be "none", "all" or a whole number of turns (got ${JSON.stringify(value)})`);
}

function splitTurns(messages: readonly Message[]): Message[][] {
  const turns: Message[][] = [];
  for (const message of messages) {
    const current = turns.at(-1);
    if (message.role === "user" || !current) turns.push([message]);
    else current.push(message);
  }
  return turns;
}

function sanitizeTurn(turn: readonly Message[]): Message[] {
  const kept: Message[] = [];
  for (const message of turn) {
    if (message.role === "user") kept.push(userCopy(message));
    else if (message.role === "assistant") {
      const final = finalText(message);
      if (final) kept.push(final);
    }
  }
  return kept;
}

/** An assistant message that called no tools is the turn's answer; keep its text only. */
function finalText(message: AssistantMessage): AssistantMessage | undefined {
  if (message.stopReason === "error" || message.stopReason === "aborted") return undefined;
  if (message.content.some((part) => part.type === "tool_call")) return undefined;
  const text = message.content.filter((part) => part.type === "text" && part.text.trim() !== "");
  if (text.length === 0) return undefined;
  return { ...message, content: text.map((part) => ({ ...part })) };
}

function userCopy(message: UserMessage): UserMessage {
  return { role: "user", content: message.content.map((part) => ({ ...part })) };
}
