import { expect, it } from "vitest";
import { CONTEXT_WINDOWS, contextWindowOf, DEFAULT_CONTEXT_WINDOW } from "../../src/model/context-windows.ts";

it("knows the windows of listed models, their dated snapshots and -latest names", () => {
  expect(contextWindowOf("openai:gpt-4o")).toBe(128_000);
  expect(contextWindowOf("openai:gpt-5-mini-2025-08-07")).toBe(CONTEXT_WINDOWS["openai:gpt-5-mini"]);
  expect(contextWindowOf("openai:gpt-4.1")).toBe(1_047_576);
});

it("gives a provider's unlisted models the provider's smallest window, and unknown models a small default", () => {
  expect(contextWindowOf("anthropic:claude-sonnet-4-5-20250929")).toBe(200_000);
  expect(contextWindowOf("anthropic:claude-some-future-model")).toBe(200_000);
  expect(contextWindowOf("openai:some-new-model")).toBe(128_000);
  expect(contextWindowOf("ollama:qwen3")).toBe(DEFAULT_CONTEXT_WINDOW);
  expect(contextWindowOf("openai-compatible:local/llama")).toBe(DEFAULT_CONTEXT_WINDOW);
  expect(DEFAULT_CONTEXT_WINDOW).toBeLessThanOrEqual(32_000);
});

it("lets configured windows add and correct entries", () => {
  const extra = { "ollama:qwen3": 40_960, "openai:gpt-4o": 64_000 };
  expect(contextWindowOf("ollama:qwen3", extra)).toBe(40_960);
  expect(contextWindowOf("openai:gpt-4o", extra)).toBe(64_000);
  expect(contextWindowOf("openai:gpt-4o-2024-08-06", extra)).toBe(64_000);
});
