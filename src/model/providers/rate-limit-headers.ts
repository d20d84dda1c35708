import type { RateLimits, RateWindow } from "../capacity.ts";

/** Response headers as the AI SDK passes them: lower-case names. */
export type Headers = Readonly<Record<string, string | undefined>>;

/** Reads a provider's rate-limit headers into windows; undefined when it sent none. */
export type RateLimitReader = (headers: Headers | undefined, now?: number) => RateLimits | undefined;

/**
 * Anthropic: `anthropic-ratelimit-{requests,tokens}-{limit,remaining,reset}`, reset an RFC 3339 time.
 * `tokens` is the most restrictive token limit in effect; without it, the input-token window.
 */
export const anthropicRateLimits: RateLimitReader = (headers, now = Date.now()) => {
  const window = (kind: string) =>
    windowOf(headers, `anthropic-ratelimit-${kind}`, (value) => {
      const at = Date.parse(value);
      return Number.isNaN(at) ? undefined : Math.max(0, at - now);
    });
  return limits(window("requests"), window("tokens") ?? window("input-tokens"));
};

/**
 * OpenAI (and servers that mimic it): `x-ratelimit-{limit,remaining,reset}-{requests,tokens}`, reset a
 * duration such as `1s`, `6m0s` or `120ms`.
 */
export const openaiRateLimits: RateLimitReader = (headers) => {
  const window = (kind: string) => {
    const remaining = count(headers?.[`x-ratelimit-remaining-${kind}`]);
    if (remaining === undefined) return undefined;
    const result: RateWindow = { remaining };
    const limit = count(headers?.[`x-ratelimit-limit-${kind}`]);
    const reset = parseDuration(headers?.[`x-ratelimit-reset-${kind}`]);
    if (limit !== undefined) result.limit = limit;
    if (reset !== undefined) result.resetMs = reset;
    return result;
  };
  return limits(window("requests"), window("tokens"));
};

function windowOf(
  headers: Headers | undefined,
  prefix: string,
  parseReset: (value: string) => number | undefined,
): RateWindow | undefined {
  const remaining = count(headers?.[`${prefix}-remaining`]);
  if (remaining === undefined) return undefined;
  const result: RateWindow = { remaining };
  const limit = count(headers?.[`${prefix}-limit`]);
  const resetText = headers?.[`${prefix}-reset`]?.trim();
  const reset = resetText ? parseReset(resetText) : undefined;
  if (limit !== undefined) result.limit = limit;
  if (reset !== undefined) result.resetMs = reset;
  return result;
}

function limits(requests: RateWindow | undefined, tokens: RateWindow | undefined): RateLimits | undefined {
  if (requests === undefined && tokens === undefined) return undefined;
  return { ...(requests ? { requests } : {}), ...(tokens ? { tokens } : {}) };
}

function count(text: string | undefined): number | undefined {
  if (text === undefined || !/^\s*\d+(\.\d+)?\s*$/.test(text)) return undefined;
  return Number.parseFloat(text);
}

const UNIT_MS: Record<string, number> = { h: 3_600_000, m: 60_000, s: 1000, ms: 1 };

/** `6m0s` → 360000, `1.5s` → 1500, `120ms` → 120, `2h` → 7200000; a bare number is seconds. */
export function parseDuration(text: string | undefined): number | undefined {
  const value = text?.trim();
  if (!value) return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return Number.parseFloat(value) * 1000;
  if (!/^(\d+(\.\d+)?(ms|h|m|s))+$/.test(value)) return undefined;
  let total = 0;
  for (const [, amount, unit] of value.matchAll(/(\d+(?:\.\d+)?)(ms|h|m|s)/g)) {
    total += Number.parseFloat(amount ?? "0") * (UNIT_MS[unit ?? "s"] ?? 1000);
  }
  return total;
}
