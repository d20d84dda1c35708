import { describe, expect, test } from "vitest";
import { costOf, PRICES, priceOf, withCost } from "../../src/model/pricing.ts";

describe("pricing", () => {
  test("prices current Anthropic and OpenAI models, with cache prices", () => {
    expect(priceOf("anthropic:claude-opus-4-5")).toEqual({
      input: 5,
      output: 25,
      cacheRead: 0.5,
      cacheWrite: 6.25,
    });
    expect(priceOf("anthropic:claude-sonnet-4-5")).toEqual({
      input: 3,
      output: 15,
      cacheRead: 0.3,
      cacheWrite: 3.75,
    });
    expect(priceOf("openai:gpt-5")).toEqual({ input: 1.25, output: 10, cacheRead: 0.125, cacheWrite: 1.25 });
  });

  test("dated snapshots and -latest resolve to their base model", () => {
    expect(priceOf("anthropic:claude-sonnet-4-5-20250929")).toBe(PRICES["anthropic:claude-sonnet-4-5"]);
    expect(priceOf("anthropic:claude-opus-4-20250514")).toBe(PRICES["anthropic:claude-opus-4"]);
    expect(priceOf("openai:gpt-5-mini-2025-08-07")).toBe(PRICES["openai:gpt-5-mini"]);
  });

  test("unknown models have no price; extra prices win", () => {
    expect(priceOf("ollama:qwen3")).toBeUndefined();
    const own = { input: 1, output: 2, cacheRead: 0, cacheWrite: 0 };
    expect(priceOf("ollama:qwen3", { "ollama:qwen3": own })).toBe(own);
    expect(priceOf("openai:gpt-5", { "openai:gpt-5": own })).toBe(own);
  });

  test("cost adds the four token kinds at their prices", () => {
    const price = { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 };
    const usage = { input: 1_000_000, output: 100_000, cacheRead: 2_000_000, cacheWrite: 400_000 };
    expect(costOf(usage, price)).toBeCloseTo(3 + 1.5 + 0.6 + 1.5, 10);
  });

  test("withCost leaves usage without a cost when the price is unknown", () => {
    const usage = { input: 10, output: 10, cacheRead: 0, cacheWrite: 0 };
    expect(withCost(usage, undefined)).toEqual(usage);
    expect(withCost(usage, PRICES["openai:gpt-5"])).toHaveProperty("cost");
  });

  test("every table entry is a complete, non-negative price", () => {
    for (const [id, price] of Object.entries(PRICES)) {
      expect(id).toMatch(/^(anthropic|openai):/);
      for (const value of Object.values(price)) expect(value).toBeGreaterThanOrEqual(0);
      expect(price.output).toBeGreaterThan(price.input);
    }
  });
});
