import { describe, expect, test } from "vitest";
import { DEFAULT_RETRY, parseRetryAfter, retryDelayMs } from "../../src/model/retry.ts";

describe("retryDelayMs", () => {
  test("doubles per retry, with jitter between half and all of the step", () => {
    const options = { baseDelayMs: 100, maxDelayMs: 10_000 };
    expect(retryDelayMs(1, undefined, { ...options, random: () => 0 })).toBe(50);
    expect(retryDelayMs(1, undefined, { ...options, random: () => 1 })).toBe(100);
    expect(retryDelayMs(3, undefined, { ...options, random: () => 1 })).toBe(400);
  });

  test("is capped by maxDelayMs, including a server's retry-after", () => {
    expect(retryDelayMs(10, undefined, { baseDelayMs: 1000, maxDelayMs: 5000, random: () => 1 })).toBe(5000);
    expect(retryDelayMs(1, 120_000, { maxDelayMs: 5000 })).toBe(5000);
    expect(retryDelayMs(1, 1500, { maxDelayMs: 5000 })).toBe(1500);
  });

  test("defaults: 3 retries, 1 s base, 30 s cap, 60 s idle watchdog", () => {
    expect(DEFAULT_RETRY).toEqual({
      maxRetries: 3,
      baseDelayMs: 1000,
      maxDelayMs: 30_000,
      idleTimeoutMs: 60_000,
    });
  });
});

describe("parseRetryAfter", () => {
  test("reads retry-after-ms first, then retry-after seconds", () => {
    expect(parseRetryAfter({ "retry-after-ms": "250", "retry-after": "9" })).toBe(250);
    expect(parseRetryAfter({ "retry-after": "2" })).toBe(2000);
    expect(parseRetryAfter({ "retry-after": "0.5" })).toBe(500);
  });

  test("reads an HTTP date relative to now", () => {
    const now = Date.parse("2026-01-01T00:00:00Z");
    expect(parseRetryAfter({ "retry-after": "Thu, 01 Jan 2026 00:00:03 GMT" }, now)).toBe(3000);
    expect(parseRetryAfter({ "retry-after": "Wed, 31 Dec 2025 00:00:00 GMT" }, now)).toBe(0);
  });

  test("ignores missing or malformed values", () => {
    expect(parseRetryAfter(undefined)).toBeUndefined();
    expect(parseRetryAfter({})).toBeUndefined();
    expect(parseRetryAfter({ "retry-after": "soon" })).toBeUndefined();
    expect(parseRetryAfter({ "retry-after-ms": "-5" })).toBeUndefined();
  });
});
