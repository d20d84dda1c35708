import { createOpenAI } from "@ai-sdk/openai";
import type { Model } from "../model.ts";
import type { AdapterOptions } from "./adapter-options.ts";
import type { ErrorHints } from "./describe-error.ts";
import { OPENAI_DEFAULT_BASE_URL, type OpenAIApi } from "./endpoints.ts";
import { httpFetch } from "./http-fetch.ts";
import { imageOptions } from "./image-fallback.ts";
import { reasoningItemOf, reasoningItemOptions } from "./openai-reasoning-item.ts";
import { withResponsesOptions } from "./openai-responses-options.ts";
import { openaiRateLimits } from "./rate-limit-headers.ts";
import { sdkModel } from "./sdk-model.ts";

export interface OpenAIModelOptions extends AdapterOptions {
  apiKey: string;
  /** Includes `/v1` (the meaning of `OPENAI_BASE_URL`). */
  baseUrl?: string;
  /** Default `responses`; `chat` for servers that only mimic Chat Completions. */
  api?: OpenAIApi;
}

/**
 * OpenAI over the Responses API (`POST /responses`), where reasoning items round-trip between turns,
 * or over Chat Completions (`POST /chat/completions`) with `api: "chat"`.
 */
export function openaiModel(options: OpenAIModelOptions): Model {
  const provider = createOpenAI({
    apiKey: options.apiKey,
    baseURL: (options.baseUrl ?? OPENAI_DEFAULT_BASE_URL).replace(/\/+$/, ""),
    fetch: options.fetch ?? httpFetch,
  });
  const id = `openai:${options.model}`;
  const common = { id, price: options.price };
  const hints: ErrorHints = {
    label: "OpenAI",
    model: options.model,
    keyHint: "OPENAI_API_KEY or providers.openai.apiKey in agentry.json",
    baseUrlHint: "OPENAI_BASE_URL or providers.openai.baseUrl in agentry.json",
  };
  if (options.api === "chat")
    return sdkModel({
      ...common,
      hints,
      language: provider.chat(options.model),
      // Chat Completions' tool messages hold text only.
      prompt: { toolResultImages: "user", ...imageOptions(id, options.images) },
      rateLimits: openaiRateLimits,
    });
  return sdkModel({
    ...common,
    hints: {
      ...hints,
      apiHint:
        'set "api": "chat" under providers.openai in agentry.json for a server that speaks only Chat Completions',
    },
    language: provider.responses(options.model),
    prompt: { reasoningOptions: reasoningItemOptions, ...imageOptions(id, options.images) },
    prepare: withResponsesOptions,
    reasoningDataOf: reasoningItemOf,
    rateLimits: openaiRateLimits,
  });
}
