import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import type { Model } from "../model.ts";
import type { AdapterOptions } from "./adapter-options.ts";
import type { ErrorHints } from "./describe-error.ts";
import { httpFetch } from "./http-fetch.ts";
import { imageOptions } from "./image-fallback.ts";
import { openaiRateLimits } from "./rate-limit-headers.ts";
import { sdkModel } from "./sdk-model.ts";

export interface OpenAICompatibleModelOptions extends AdapterOptions {
  /** Canonical id, e.g. `ollama:qwen3` or `openai-compatible:openrouter/anthropic/claude-sonnet-5`. */
  id: string;
  /** A short name for messages and the SDK, e.g. `ollama`, `openrouter`. */
  name: string;
  /** Includes `/v1`. */
  baseUrl: string;
  apiKey?: string;
  headers?: Record<string, string>;
  /** Where the user configures this endpoint, named in error messages. */
  hints: Pick<ErrorHints, "keyHint" | "baseUrlHint">;
}

/** Ollama, vLLM, llama.cpp, LM Studio, OpenRouter…: any server speaking OpenAI Chat Completions. */
export function openaiCompatibleModel(options: OpenAICompatibleModelOptions): Model {
  const provider = createOpenAICompatible({
    name: options.name,
    baseURL: options.baseUrl.replace(/\/+$/, ""),
    // Without it these servers send no usage in streams.
    includeUsage: true,
    ...(options.apiKey ? { apiKey: options.apiKey } : {}),
    ...(options.headers ? { headers: options.headers } : {}),
    fetch: options.fetch ?? httpFetch,
  });
  return sdkModel({
    id: options.id,
    language: provider.chatModel(options.model),
    price: options.price,
    hints: { label: options.name, model: options.model, ...options.hints },
    // Chat Completions' tool messages hold text only.
    prompt: { toolResultImages: "user", ...imageOptions(options.id, options.images) },
    // Servers that mimic OpenAI's API mimic its rate-limit headers, when they send any.
    rateLimits: openaiRateLimits,
  });
}
