import { describe, expect, test } from "vitest";
import { ModelConfigError } from "../../src/model/errors.ts";
import { createModel, DEFAULT_MODELS, defaultModelId, type ModelSettings } from "../../src/model/registry.ts";

describe("createModel", () => {
  test("builds models under their canonical provider:model id", () => {
    const env = { ANTHROPIC_API_KEY: "a", OPENAI_API_KEY: "o" };
    expect(createModel("anthropic:claude-sonnet-4-5", {}, env).id).toBe("anthropic:claude-sonnet-4-5");
    expect(createModel("openai/gpt-5.5", {}, env).id).toBe("openai:gpt-5.5");
    expect(createModel("ollama:qwen3", {}, {}).id).toBe("ollama:qwen3");
  });

  test("resolves aliases, overridable through settings", () => {
    const env = { ANTHROPIC_API_KEY: "a", OPENAI_API_KEY: "o" };
    expect(createModel("sonnet", {}, env).id).toMatch(/^anthropic:claude-sonnet-/);
    expect(createModel("sonnet", { aliases: { sonnet: "openai:gpt-5" } }, env).id).toBe("openai:gpt-5");
    expect(() => createModel("inherit", {}, env)).toThrow(/parent agent's model/);
  });

  test("a missing key names the env var, the config key and the way out", () => {
    expect(() => createModel("anthropic:claude-sonnet-4-5", {}, {})).toThrow(ModelConfigError);
    expect(() => createModel("anthropic:claude-sonnet-4-5", {}, {})).toThrow(
      "No API key for anthropic:claude-sonnet-4-5. Set ANTHROPIC_API_KEY or providers.anthropic.apiKey in agentry.json, or pick another provider with --model",
    );
    expect(() => createModel("openai:gpt-5", {}, { OPENAI_API_KEY: "  " })).toThrow(
      /Set OPENAI_API_KEY or providers.openai.apiKey/,
    );
  });

  test("keys may come from settings instead of the environment", () => {
    expect(createModel("anthropic:x", { anthropic: { apiKey: "k" } }, {}).id).toBe("anthropic:x");
  });

  test("unknown providers and unknown endpoints are configuration errors", () => {
    expect(() => createModel("gemini:pro", {}, {})).toThrow(/Unknown provider "gemini"/);
    expect(() => createModel("openai-compatible:vllm/qwen", {}, {})).toThrow(
      /No OpenAI-compatible endpoint named "vllm".*providers.openaiCompatible.vllm/,
    );
  });

  test("openai-compatible endpoints use the id's model, else the configured one", () => {
    const settings = {
      openaiCompatible: { vllm: { baseUrl: "http://localhost:8000/v1", model: "qwen3-coder" } },
    };
    expect(createModel("openai-compatible:vllm/llama", settings, {}).id).toBe("openai-compatible:vllm/llama");
    expect(createModel("openai-compatible:vllm", settings, {}).id).toBe("openai-compatible:vllm/qwen3-coder");
    expect(createModel("vllm:llama", settings, {}).id).toBe("openai-compatible:vllm/llama");
    expect(() =>
      createModel("openai-compatible:lm", { openaiCompatible: { lm: { baseUrl: "http://x/v1" } } }, {}),
    ).toThrow(/names no model.*providers.openaiCompatible.lm.model/);
  });

  test("malformed base URLs are reported with where they came from", () => {
    expect(() =>
      createModel("anthropic:x", {}, { ANTHROPIC_API_KEY: "k", ANTHROPIC_BASE_URL: "not a url" }),
    ).toThrow(/"not a url" is not a valid URL; fix providers.anthropic.baseUrl or ANTHROPIC_BASE_URL/);
  });

  test("each provider's bad-URL hint gives an example of that provider's own form", () => {
    const badUrl = (id: string, env: Record<string, string>, settings: ModelSettings = {}) => {
      try {
        createModel(id, settings, env);
      } catch (error) {
        return (error as Error).message;
      }
      throw new Error(`${id}: expected a ModelConfigError`);
    };
    // ANTHROPIC_BASE_URL is the host: agentry adds /v1, so the example must not carry it.
    expect(badUrl("anthropic:x", { ANTHROPIC_API_KEY: "k", ANTHROPIC_BASE_URL: "::" })).toMatch(
      /\(e\.g\. https:\/\/api\.anthropic\.com\)\.$/,
    );
    expect(badUrl("openai:x", { OPENAI_API_KEY: "k", OPENAI_BASE_URL: "::" })).toMatch(
      /\(e\.g\. https:\/\/api\.openai\.com\/v1\)\.$/,
    );
    expect(badUrl("openai-compatible:lm/x", {}, { openaiCompatible: { lm: { baseUrl: "::" } } })).toMatch(
      /fix providers\.openaiCompatible\.lm\.baseUrl \(e\.g\. http:\/\/localhost:8000\/v1\)\.$/,
    );
  });

  test("a base URL that is not http(s) is refused when the model is built, never tried", () => {
    const cases: [string, ModelSettings, Record<string, string>, RegExp][] = [
      [
        "anthropic:x",
        {},
        { ANTHROPIC_API_KEY: "k", ANTHROPIC_BASE_URL: "ftp://example.com" },
        /ANTHROPIC_BASE_URL/,
      ],
      ["openai:x", { openai: { apiKey: "k", baseUrl: "file:///tmp/api" } }, {}, /providers\.openai\.baseUrl/],
      ["ollama:qwen3", {}, { OLLAMA_HOST: "unix:///run/ollama.sock" }, /OLLAMA_HOST/],
      [
        "openai-compatible:lm/x",
        { openaiCompatible: { lm: { baseUrl: "ws://localhost:1/v1" } } },
        {},
        /lm\.baseUrl/,
      ],
    ];
    for (const [id, settings, env, where] of cases) {
      expect(() => createModel(id, settings, env), id).toThrow(ModelConfigError);
      expect(() => createModel(id, settings, env), id).toThrow(
        /is not an http\(s\) URL \(scheme "\w+"\); fix /,
      );
      expect(() => createModel(id, settings, env), id).toThrow(where);
    }
  });
});

describe("defaultModelId", () => {
  test("prefers Anthropic, then OpenAI, else nothing", () => {
    expect(defaultModelId({ ANTHROPIC_API_KEY: "a", OPENAI_API_KEY: "o" })).toBe(DEFAULT_MODELS.anthropic);
    expect(defaultModelId({ OPENAI_API_KEY: "o" })).toBe(DEFAULT_MODELS.openai);
    expect(defaultModelId({})).toBeUndefined();
    expect(defaultModelId({ ANTHROPIC_API_KEY: "" })).toBeUndefined();
    expect(defaultModelId({}, { openai: { apiKey: "o" } })).toBe(DEFAULT_MODELS.openai);
  });
});
