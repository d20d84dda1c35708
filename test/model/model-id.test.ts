import { describe, expect, test } from "vitest";
import { ModelConfigError } from "../../src/model/errors.ts";
import { isAlias, isInheritModel, parseModelId, resolveAlias } from "../../src/model/model-id.ts";

describe("parseModelId", () => {
  test("splits provider:model at the first colon", () => {
    expect(parseModelId("anthropic:claude-sonnet-5-5")).toEqual({
      provider: "anthropic",
      model: "claude-sonnet-5-5",
      id: "anthropic:claude-sonnet-5-5",
    });
    expect(parseModelId("ollama:qwen3:8b")).toMatchObject({ provider: "ollama", model: "qwen3:8b" });
  });

  test("accepts provider/model and canonicalizes it to provider:model", () => {
    expect(parseModelId("openai/gpt-5.5")).toMatchObject({
      provider: "openai",
      model: "gpt-5.5",
      id: "openai:gpt-5.5",
    });
  });

  test("openai-compatible:<name>/<model> names an endpoint and a model that may contain slashes", () => {
    expect(parseModelId("openai-compatible:openrouter/anthropic/claude-sonnet-5")).toEqual({
      provider: "openai-compatible",
      endpoint: "openrouter",
      model: "anthropic/claude-sonnet-5",
      id: "openai-compatible:openrouter/anthropic/claude-sonnet-5",
    });
    expect(parseModelId("openai-compatible:vllm")).toMatchObject({ endpoint: "vllm", model: "" });
  });

  test("a configured endpoint name works as a provider", () => {
    expect(parseModelId("openrouter:qwen/qwen3-coder", ["openrouter"])).toMatchObject({
      provider: "openai-compatible",
      endpoint: "openrouter",
      model: "qwen/qwen3-coder",
    });
  });

  test("unknown providers get an error listing the known ones", () => {
    expect(() => parseModelId("gemini:gemini-3-pro")).toThrow(ModelConfigError);
    expect(() => parseModelId("gemini:gemini-3-pro")).toThrow(
      /Unknown provider "gemini".*anthropic, openai, ollama, openai-compatible/,
    );
    expect(() => parseModelId("mistral/large")).toThrow(/Unknown provider "mistral"/);
  });

  test("ids without a provider or without a model are rejected", () => {
    expect(() => parseModelId("claude-sonnet-5-5")).toThrow(/has no provider/);
    expect(() => parseModelId("anthropic:")).toThrow(/names no model/);
    expect(() => parseModelId("openai-compatible:")).toThrow(/names no endpoint/);
  });
});

describe("resolveAlias", () => {
  test("sonnet, opus and haiku resolve to Anthropic models", () => {
    expect(resolveAlias("sonnet")).toMatch(/^anthropic:claude-sonnet-/);
    expect(resolveAlias("opus")).toMatch(/^anthropic:claude-opus-/);
    expect(resolveAlias("haiku")).toMatch(/^anthropic:claude-haiku-/);
  });

  test("settings override defaults and may chain", () => {
    expect(resolveAlias("sonnet", { sonnet: "anthropic:claude-sonnet-4-5" })).toBe(
      "anthropic:claude-sonnet-4-5",
    );
    expect(resolveAlias("fast", { fast: "cheap", cheap: "openai:gpt-5-mini" })).toBe("openai:gpt-5-mini");
  });

  test("full ids pass through unchanged", () => {
    expect(resolveAlias("openai:gpt-5.5")).toBe("openai:gpt-5.5");
  });

  test("inherit cannot be resolved here and says who must resolve it", () => {
    expect(isInheritModel("inherit")).toBe(true);
    expect(isInheritModel("sonnet")).toBe(false);
    expect(() => resolveAlias("inherit")).toThrow(/parent agent's model/);
  });

  test("unknown aliases and cycles are clear errors", () => {
    expect(() => resolveAlias("gpt5")).toThrow(/Unknown model "gpt5".*provider:model/);
    expect(() => resolveAlias("a", { a: "b", b: "a" })).toThrow(/cycle: a → b → a/);
  });

  test("isAlias tells bare words from ids", () => {
    expect(isAlias("sonnet")).toBe(true);
    expect(isAlias("anthropic:x")).toBe(false);
    expect(isAlias("openai/gpt-5")).toBe(false);
  });
});
