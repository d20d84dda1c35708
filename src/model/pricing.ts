import type { Usage } from "./messages.ts";

/** US dollars per million tokens. `cacheWrite` is the 5-minute cache write price. */
export interface ModelPrice {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
}

const anthropic = (input: number, output: number, cacheRead: number): ModelPrice => ({
  input,
  output,
  cacheRead,
  cacheWrite: input * 1.25,
});
/** OpenAI's automatic caching charges nothing extra to write the cache. */
const openai = (input: number, output: number, cacheRead: number): ModelPrice => ({
  input,
  output,
  cacheRead,
  cacheWrite: input,
});

/**
 * List prices as published by Anthropic (platform.claude.com/docs/en/about-claude/pricing) and OpenAI
 * (developers.openai.com/api/docs/pricing), checked November 2026. Keys are the providers' model names;
 * dated snapshots (`claude-sonnet-4-5-20250929`, `gpt-5-2025-08-07`) resolve to their base name.
 * Tiered prices (Haiku 5.5 above 100k prompt tokens, long-context surcharges) use the base tier.
 * Models missing here report no `cost`; users can add prices through `ModelSettings.prices`.
 */
export const PRICES: Readonly<Record<string, ModelPrice>> = {
  "anthropic:claude-fable-5-1": anthropic(10, 50, 0.25),
  "anthropic:claude-fable-5": anthropic(10, 50, 1),
  "anthropic:claude-opus-5-5": anthropic(4, 20, 0.2),
  "anthropic:claude-opus-5": anthropic(5, 25, 0.5),
  "anthropic:claude-opus-4-8": anthropic(5, 25, 0.5),
  "anthropic:claude-opus-4-7": anthropic(5, 25, 0.5),
  "anthropic:claude-opus-4-6": anthropic(5, 25, 0.5),
  "anthropic:claude-opus-4-5": anthropic(5, 25, 0.5),
  "anthropic:claude-opus-4-1": anthropic(15, 75, 1.5),
  "anthropic:claude-opus-4-0": anthropic(15, 75, 1.5),
  "anthropic:claude-opus-4": anthropic(15, 75, 1.5),
  "anthropic:claude-sonnet-5-5": anthropic(2, 10, 0.1),
  "anthropic:claude-sonnet-5": anthropic(2, 10, 0.2),
  "anthropic:claude-sonnet-4-6": anthropic(3, 15, 0.3),
  "anthropic:claude-sonnet-4-5": anthropic(3, 15, 0.3),
  "anthropic:claude-sonnet-4-0": anthropic(3, 15, 0.3),
  "anthropic:claude-sonnet-4": anthropic(3, 15, 0.3),
  "anthropic:claude-haiku-5-5": anthropic(0.1, 0.5, 0.01),
  "anthropic:claude-haiku-4-5": anthropic(1, 5, 0.1),
  "anthropic:claude-3-5-haiku": anthropic(0.8, 4, 0.08),
  "anthropic:claude-3-haiku": { input: 0.25, output: 1.25, cacheRead: 0.03, cacheWrite: 0.3 },
  // GPT-5.6 bills cache writes at 1.25x input, like Anthropic.
  "openai:gpt-5.6-sol": anthropic(5, 30, 0.5),
  "openai:gpt-5.6-terra": anthropic(2.5, 15, 0.25),
  "openai:gpt-5.6-luna": anthropic(1, 6, 0.1),
  "openai:gpt-5.5": openai(5, 30, 0.5),
  "openai:gpt-5.4": openai(2.5, 15, 0.25),
  "openai:gpt-5.4-mini": openai(0.75, 4.5, 0.075),
  "openai:gpt-5.1": openai(1.25, 10, 0.125),
  "openai:gpt-5.1-codex": openai(1.25, 10, 0.125),
  "openai:gpt-5": openai(1.25, 10, 0.125),
  "openai:gpt-5-codex": openai(1.25, 10, 0.125),
  "openai:gpt-5-mini": openai(0.25, 2, 0.025),
  "openai:gpt-5-nano": openai(0.05, 0.4, 0.005),
  "openai:gpt-4.1": openai(2, 8, 0.5),
  "openai:gpt-4.1-mini": openai(0.4, 1.6, 0.1),
  "openai:gpt-4.1-nano": openai(0.1, 0.4, 0.025),
  "openai:gpt-4o": openai(2.5, 10, 1.25),
  "openai:gpt-4o-mini": openai(0.15, 0.6, 0.075),
  "openai:o3": openai(2, 8, 0.5),
  "openai:o4-mini": openai(1.1, 4.4, 0.275),
};

/** The price of a `provider:model` id, trying `extra` first, then `PRICES`; undefined when unknown. */
export function priceOf(
  modelId: string,
  extra: Readonly<Record<string, ModelPrice>> = {},
): ModelPrice | undefined {
  for (const key of candidateKeys(modelId)) {
    const price = extra[key] ?? PRICES[key];
    if (price) return price;
  }
  return undefined;
}

/** Cost in US dollars. `usage.input` counts uncached input only, so the four counts never overlap. */
export function costOf(usage: Omit<Usage, "cost">, price: ModelPrice): number {
  const dollars =
    usage.input * price.input +
    usage.output * price.output +
    usage.cacheRead * price.cacheRead +
    usage.cacheWrite * price.cacheWrite;
  return dollars / 1_000_000;
}

/** `usage` with `cost` filled in when the price is known. */
export function withCost(usage: Usage, price: ModelPrice | undefined): Usage {
  if (!price) return usage;
  return { ...usage, cost: costOf(usage, price) };
}

/**
 * The keys a `provider:model` id may be listed under, most specific first: itself, then without a
 * date suffix, then without `-latest`. The price and context-window tables share it.
 */
export function candidateKeys(modelId: string): string[] {
  const keys = [modelId];
  // Dated snapshots: -20250929 (Anthropic) and -2025-08-07 (OpenAI).
  const undated = modelId.replace(/-\d{8}$/, "").replace(/-\d{4}-\d{2}-\d{2}$/, "");
  if (undated !== modelId) keys.push(undated);
  // `-latest` aliases are priced like their family.
  if (undated.endsWith("-latest")) keys.push(undated.slice(0, -"-latest".length));
  return keys;
}
