import type { Message } from "../../model/messages.ts";
import type { ToolSpec } from "../../model/model.ts";
import { CHARS_PER_TOKEN, messageChars } from "../limits/token-estimate.ts";

/** What a prompt is made of: the system prompt, the tool specs and the history. */
export interface PromptParts {
  system: string;
  tools: readonly ToolSpec[];
  messages: readonly Message[];
  /** The first message whose reported usage describes this history (`Session.measuredFrom`). */
  measuredFrom: number;
}

/** The size of a prompt in tokens, and how content converts, for what-if sums (what a compaction keeps). */
export interface ContextSize {
  tokens: number;
  /**
   * True when the provider's report of an earlier call anchors it; false when it is an estimate
   * from characters (no call yet since the session started or was compacted).
   */
  measured: boolean;
  /** The system prompt and tool specs, in tokens. */
  fixedTokens: number;
  /** Tokens per character of content, from the anchor's report (or the usual estimate). */
  tokensPerChar: number;
}

/**
 * Tokenizers give from about 8 characters a token (indented code) to more than a token a character
 * (Chinese); a report outside that range does not describe these messages (a fake model, a provider
 * that counts something else) and is not used.
 */
const MIN_TOKENS_PER_CHAR = 1 / 10;
const MAX_TOKENS_PER_CHAR = 1.5;

/**
 * Measures a prompt from what the provider reported for the last call that saw this history: that
 * call's prompt tokens (input and cache) plus its output, plus the messages added since, converted at
 * the rate the report gives. Only without such a call is the whole prompt estimated from characters.
 */
export function measureContext(parts: PromptParts): ContextSize {
  const fixedChars = parts.system.length + JSON.stringify(parts.tools).length;
  const { messages } = parts;
  const anchor = lastReportedCall(messages, parts.measuredFrom);
  const before = anchor === undefined ? 0 : fixedChars + sumChars(messages, 0, anchor.index);
  const reportedRate = anchor === undefined ? 0 : anchor.prompt / before;
  if (anchor === undefined || reportedRate < MIN_TOKENS_PER_CHAR || reportedRate > MAX_TOKENS_PER_CHAR) {
    const tokensPerChar = 1 / CHARS_PER_TOKEN;
    const chars = fixedChars + sumChars(messages, 0, messages.length);
    return {
      tokens: Math.ceil(chars * tokensPerChar),
      measured: false,
      fixedTokens: Math.ceil(fixedChars * tokensPerChar),
      tokensPerChar,
    };
  }
  const { index, prompt, output } = anchor;
  const tokensPerChar = reportedRate;
  const added = sumChars(messages, index + 1, messages.length);
  return {
    tokens: prompt + output + Math.ceil(added * tokensPerChar),
    measured: true,
    fixedTokens: Math.ceil(fixedChars * tokensPerChar),
    tokensPerChar,
  };
}

/** Estimated tokens of `messages[from, to)` at `tokensPerChar`. */
export function messagesTokens(
  messages: readonly Message[],
  from: number,
  to: number,
  tokensPerChar: number,
): number {
  return Math.ceil(sumChars(messages, from, to) * tokensPerChar);
}

function lastReportedCall(
  messages: readonly Message[],
  measuredFrom: number,
): { index: number; prompt: number; output: number } | undefined {
  for (let index = messages.length - 1; index >= measuredFrom; index--) {
    const message = messages[index];
    if (message?.role !== "assistant") continue;
    const { usage } = message;
    const prompt = usage.input + usage.cacheRead + usage.cacheWrite;
    // A failed call or a hand-built message reports nothing; an earlier call may.
    if (prompt > 0) return { index, prompt, output: usage.output };
  }
  return undefined;
}

function sumChars(messages: readonly Message[], from: number, to: number): number {
  let chars = 0;
  for (let index = from; index < to; index++) chars += messageChars(messages[index] as Message);
  return chars;
}
