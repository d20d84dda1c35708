import { candidateKeys } from "./pricing.ts";

/**
 * How many tokens a request's prompt may hold, per `provider:model` id: what automatic compaction
 * measures a conversation against. Where a provider limits the input below its advertised window
 * (GPT-5: 400k in all, 272k of it input) the input limit is listed, so a share of it is always
 * sendable. Opt-in extended windows (Anthropic's 1M beta) are not assumed. Dated snapshots and
 * `-latest` resolve as prices do (`candidateKeys`). Users correct or add entries through
 * `ModelSettings.contextWindows` (`providers.contextWindows` in agentry.json).
 */
export const CONTEXT_WINDOWS: Readonly<Record<string, number>> = {
  "openai:gpt-5.6-sol": 272_000,
  "openai:gpt-5.6-terra": 272_000,
  "openai:gpt-5.6-luna": 272_000,
  "openai:gpt-5.5": 272_000,
  "openai:gpt-5.4": 272_000,
  "openai:gpt-5.4-mini": 272_000,
  "openai:gpt-5.1": 272_000,
  "openai:gpt-5.1-codex": 272_000,
  "openai:gpt-5": 272_000,
  "openai:gpt-5-codex": 272_000,
  "openai:gpt-5-mini": 272_000,
  "openai:gpt-5-nano": 272_000,
  "openai:gpt-4.1": 1_047_576,
  "openai:gpt-4.1-mini": 1_047_576,
  "openai:gpt-4.1-nano": 1_047_576,
  "openai:gpt-4o": 128_000,
  "openai:gpt-4o-mini": 128_000,
  "openai:o3": 200_000,
  "openai:o4-mini": 200_000,
};

/**
 * Models of a provider missing from the table: every Claude model has at least 200k tokens, and
 * OpenAI's chat models at least 128k. Local and compatible servers vary too much to guess.
 */
const PROVIDER_WINDOWS: Readonly<Record<string, number>> = {
  anthropic: 200_000,
  openai: 128_000,
};

/**
 * A model nothing is known about: small enough that an 8k–32k local model is compacted before its
 * server truncates the prompt, which costs a summary call early rather than a failed one late.
 */
export const DEFAULT_CONTEXT_WINDOW = 32_000;

/** The context window of a `provider:model` id: `extra` first, then the table, the provider's, the default. */
export function contextWindowOf(modelId: string, extra: Readonly<Record<string, number>> = {}): number {
  const keys = candidateKeys(modelId);
  for (const key of keys) {
    const window = extra[key] ?? CONTEXT_WINDOWS[key];
    if (window !== undefined) return window;
  }
  const provider = modelId.slice(0, Math.max(0, modelId.indexOf(":")));
  return PROVIDER_WINDOWS[provider] ?? DEFAULT_CONTEXT_WINDOW;
}
