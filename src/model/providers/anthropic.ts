import { createAnthropic } from "@ai-sdk/anthropic";
import { z } from "zod";
import type { ReasoningPart } from "../messages.ts";
import type { Model } from "../model.ts";
import type { AdapterOptions } from "./adapter-options.ts";
import { withCacheBreakpoints } from "./anthropic-cache.ts";
import { ANTHROPIC_DEFAULT_BASE_URL } from "./endpoints.ts";
import { httpFetch } from "./http-fetch.ts";
import { imageOptions } from "./image-fallback.ts";
import { anthropicRateLimits } from "./rate-limit-headers.ts";
import { sdkModel } from "./sdk-model.ts";
import type { ReasoningData } from "./stream-assembler.ts";

export interface AnthropicModelOptions extends AdapterOptions {
  apiKey: string;
  /** The host without `/v1` (the meaning of `ANTHROPIC_BASE_URL`). */
  baseUrl?: string;
}

/** Claude over the Anthropic Messages API, with prompt caching and reasoning signatures round-tripped. */
export function anthropicModel(options: AnthropicModelOptions): Model {
  const provider = createAnthropic({
    apiKey: options.apiKey,
    // Always explicit: the SDK would otherwise read ANTHROPIC_BASE_URL itself, without adding /v1.
    baseURL: versioned(options.baseUrl ?? ANTHROPIC_DEFAULT_BASE_URL),
    fetch: options.fetch ?? httpFetch,
  });
  return sdkModel({
    id: `anthropic:${options.model}`,
    language: provider.messages(options.model),
    price: options.price,
    hints: {
      label: "Anthropic",
      model: options.model,
      keyHint: "ANTHROPIC_API_KEY or providers.anthropic.apiKey in agentry.json",
      baseUrlHint: "ANTHROPIC_BASE_URL or providers.anthropic.baseUrl in agentry.json",
    },
    prompt: { reasoningOptions, ...imageOptions(`anthropic:${options.model}`, options.images) },
    prepare: withCacheBreakpoints,
    reasoningDataOf,
    rateLimits: anthropicRateLimits,
  });
}

/** `https://host` → `https://host/v1`; a URL that already ends in /v1 is kept. */
export function versioned(baseUrl: string): string {
  const trimmed = baseUrl.replace(/\/+$/, "");
  return trimmed.endsWith("/v1") ? trimmed : `${trimmed}/v1`;
}

function reasoningOptions(part: ReasoningPart) {
  return part.signature ? { anthropic: { signature: part.signature } } : undefined;
}

const signatureMetadata = z.object({ anthropic: z.object({ signature: z.string() }) });

function reasoningDataOf(metadata: unknown): ReasoningData | undefined {
  const parsed = signatureMetadata.safeParse(metadata);
  return parsed.success ? { signature: parsed.data.anthropic.signature } : undefined;
}
