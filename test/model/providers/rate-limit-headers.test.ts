import { expect, test } from "vitest";
import {
  anthropicRateLimits,
  openaiRateLimits,
  parseDuration,
} from "../../../src/model/providers/rate-limit-headers.ts";

const now = Date.parse("2026-11-26T10:00:00Z");

test("Anthropic: requests and tokens windows, reset an RFC 3339 time", () => {
  expect(
    anthropicRateLimits(
      {
        "anthropic-ratelimit-requests-limit": "50",
        "anthropic-ratelimit-requests-remaining": "12",
        "anthropic-ratelimit-requests-reset": "2026-11-26T10:00:01.500Z",
        "anthropic-ratelimit-tokens-limit": "40000",
        "anthropic-ratelimit-tokens-remaining": "3000",
        "anthropic-ratelimit-tokens-reset": "2026-11-26T10:00:30Z",
        "anthropic-ratelimit-input-tokens-remaining": "9999",
      },
      now,
    ),
  ).toEqual({
    requests: { limit: 50, remaining: 12, resetMs: 1500 },
    tokens: { limit: 40000, remaining: 3000, resetMs: 30_000 },
  });
});

test("Anthropic: without the combined tokens window, the input-token window; a reset in the past is now", () => {
  expect(
    anthropicRateLimits(
      {
        "anthropic-ratelimit-input-tokens-remaining": "100",
        "anthropic-ratelimit-input-tokens-reset": "2026-11-26T09:59:00Z",
      },
      now,
    ),
  ).toEqual({ tokens: { remaining: 100, resetMs: 0 } });
});

test("OpenAI: x-ratelimit-* with reset durations", () => {
  expect(
    openaiRateLimits({
      "x-ratelimit-limit-requests": "500",
      "x-ratelimit-remaining-requests": "499",
      "x-ratelimit-reset-requests": "120ms",
      "x-ratelimit-limit-tokens": "30000",
      "x-ratelimit-remaining-tokens": "29000",
      "x-ratelimit-reset-tokens": "6m0s",
    }),
  ).toEqual({
    requests: { limit: 500, remaining: 499, resetMs: 120 },
    tokens: { limit: 30000, remaining: 29000, resetMs: 360_000 },
  });
});

test("no headers, or unreadable ones, give nothing rather than a guess", () => {
  expect(anthropicRateLimits(undefined)).toBeUndefined();
  expect(openaiRateLimits({ "content-type": "text/event-stream" })).toBeUndefined();
  expect(openaiRateLimits({ "x-ratelimit-remaining-requests": "lots" })).toBeUndefined();
  expect(
    anthropicRateLimits(
      { "anthropic-ratelimit-requests-remaining": "3", "anthropic-ratelimit-requests-reset": "soon" },
      now,
    ),
  ).toEqual({
    requests: { remaining: 3 },
  });
});

test("durations", () => {
  expect(parseDuration("1s")).toBe(1000);
  expect(parseDuration("1.5s")).toBe(1500);
  expect(parseDuration("6m0s")).toBe(360_000);
  expect(parseDuration("1h2m3s")).toBe(3_723_000);
  expect(parseDuration("20ms")).toBe(20);
  expect(parseDuration("2")).toBe(2000);
  expect(parseDuration("")).toBeUndefined();
  expect(parseDuration("2 days")).toBeUndefined();
});
