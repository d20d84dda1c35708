import { createOpenAI } from "@ai-sdk/openai";
import type { Model } from "../model.ts";
import type { ModelPrice } from "../pricing.ts";
import { sdkModel } from "./sdk-model.ts";

export const OPENAI_DEFAULT_BASE_URL = "https://api.openai.com/v1";

export interface OpenAIModelOptions {
  /** The provider's model name, e.g. `gpt-5.5`. */
  model: string;
  apiKey: string;
  /** Includes `/v1` (the meaning of `OPENAI_BASE_URL`). */
  baseUrl?: string;
  price?: ModelPrice | undefined;
  fetch?: typeof globalThis.fetch;
}

/**
 * OpenAI over Chat Completions (not the Responses API), so any server that mimics OpenAI also works
 * when pointed at with `OPENAI_BASE_URL`.
 */
export function openaiModel(options: OpenAIModelOptions): Model {
  const provider = createOpenAI({
    apiKey: options.apiKey,
    baseURL: (options.baseUrl ?? OPENAI_DEFAULT_BASE_URL).replace(/\/+$/, ""),
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  return sdkModel({
    id: `openai:${options.model}`,
    language: provider.chat(options.model),
    price: options.price,
    hints: {
      label: "OpenAI",
      model: options.model,
      keyHint: "OPENAI_API_KEY or providers.openai.apiKey in agentry.json",
      baseUrlHint: "OPENAI_BASE_URL or providers.openai.baseUrl in agentry.json",
    },
  });
}
