import { takesImages } from "./capabilities.ts";
import { deferredModel } from "./deferred-model.ts";
import { ModelConfigError } from "./errors.ts";
import type { Model } from "./model.ts";
import { type ModelRef, parseModelId, resolveAlias } from "./model-id.ts";
import type { ModelLimiters } from "./model-limiters.ts";
import { type ModelPrice, priceOf } from "./pricing.ts";
import {
  ANTHROPIC_DEFAULT_BASE_URL,
  OPENAI_DEFAULT_BASE_URL,
  type OpenAIApi,
} from "./providers/endpoints.ts";
import type { OpenAICompatibleModelOptions } from "./providers/openai-compatible.ts";
import { withRetry } from "./retry.ts";
import { withLimiter } from "./with-limiter.ts";

/** Provider settings, usually the `providers` object of agentry.json. Environment variables fill gaps. */
export interface ModelSettings {
  anthropic?: { apiKey?: string; baseUrl?: string };
  /** `api`: `responses` (default) or `chat` (Chat Completions, for servers that only mimic that). */
  openai?: { apiKey?: string; baseUrl?: string; api?: OpenAIApi };
  ollama?: { baseUrl?: string };
  /** Named OpenAI-compatible servers; `model` is used when the id names none (`openai-compatible:<name>`). */
  openaiCompatible?: Record<
    string,
    { baseUrl: string; apiKey?: string; headers?: Record<string, string>; model?: string }
  >;
  aliases?: Record<string, string>;
  retry?: { maxRetries?: number; baseDelayMs?: number; maxDelayMs?: number; idleTimeoutMs?: number };
  /** Extra or corrected prices per `provider:model` id (US dollars per million tokens). */
  prices?: Record<string, ModelPrice>;
  /** Context windows (tokens a prompt may hold) per `provider:model` id, over `CONTEXT_WINDOWS`. */
  contextWindows?: Record<string, number>;
  /** Whether a `provider:model` id reads images, over `IMAGE_INPUT` (`takesImages`). */
  imageInput?: Record<string, boolean>;
}

type Env = Record<string, string | undefined>;

export const DEFAULT_MODELS = {
  anthropic: "anthropic:claude-sonnet-5-5",
  openai: "openai:gpt-5.5",
} as const;

const OLLAMA_DEFAULT_HOST = "http://localhost:11434";
const COMPATIBLE_EXAMPLE_URL = "http://localhost:8000/v1";

export interface CreateModelOptions {
  /**
   * The run's limiters: the model's calls go through the one of its endpoint (base URL and model),
   * shared with every other model made with the same `ModelLimiters`. Without it, calls are not limited.
   */
  limiters?: ModelLimiters;
}

/**
 * Builds a model from `provider:model` (or an alias such as `sonnet`), wrapped in the retry policy
 * and, given `limiters`, its endpoint's limiter (inside the retries, so each attempt waits its turn).
 * Keys and base URLs come from `settings`, then `env`. Throws `ModelConfigError` naming what to set.
 */
export function createModel(
  id: string,
  settings: ModelSettings = {},
  env: Env = process.env,
  options: CreateModelOptions = {},
): Model {
  const resolved = resolveAlias(id, settings.aliases);
  const ref = parseModelId(resolved, Object.keys(settings.openaiCompatible ?? {}));
  const price = priceOf(ref.id, settings.prices);
  const { model, baseUrl } = adapterFor(ref, settings, env, {
    price,
    images: takesImages(ref.id, settings.imageInput),
  });
  const limited =
    options.limiters === undefined
      ? model
      : withLimiter(model, options.limiters.for(`${baseUrl} ${model.id}`));
  return withRetry(limited, settings.retry);
}

/** The model to use when none is configured: Anthropic when its key is set, else OpenAI, else none. */
export function defaultModelId(env: Env, settings: ModelSettings = {}): string | undefined {
  if (value(settings.anthropic?.apiKey) ?? value(env.ANTHROPIC_API_KEY)) return DEFAULT_MODELS.anthropic;
  if (value(settings.openai?.apiKey) ?? value(env.OPENAI_API_KEY)) return DEFAULT_MODELS.openai;
  return undefined;
}

/** What every adapter takes besides its endpoint: the model's price, and whether it reads images. */
interface AdapterTraits {
  price: ModelPrice | undefined;
  images: boolean;
}

/** The adapter, and the base URL it sends to (with the model, what identifies its endpoint). */
function adapterFor(
  ref: ModelRef,
  settings: ModelSettings,
  env: Env,
  traits: AdapterTraits,
): { model: Model; baseUrl: string } {
  switch (ref.provider) {
    case "anthropic": {
      // The host only: the adapter adds /v1.
      const { apiKey, baseUrl } = hostedEndpoint(
        ref,
        "anthropic",
        settings.anthropic,
        env,
        "https://api.anthropic.com",
      );
      const options = { model: ref.model, apiKey, ...traits, ...(baseUrl ? { baseUrl } : {}) };
      return {
        model: deferredModel(`anthropic:${ref.model}`, async () =>
          (await import("./providers/anthropic.ts")).anthropicModel(options),
        ),
        baseUrl: baseUrl ?? ANTHROPIC_DEFAULT_BASE_URL,
      };
    }
    case "openai": {
      const { apiKey, baseUrl } = hostedEndpoint(
        ref,
        "openai",
        settings.openai,
        env,
        "https://api.openai.com/v1",
      );
      const options = {
        model: ref.model,
        apiKey,
        ...traits,
        api: settings.openai?.api ?? "responses",
        ...(baseUrl ? { baseUrl } : {}),
      };
      return {
        model: deferredModel(`openai:${ref.model}`, async () =>
          (await import("./providers/openai.ts")).openaiModel(options),
        ),
        baseUrl: baseUrl ?? OPENAI_DEFAULT_BASE_URL,
      };
    }
    case "ollama": {
      const baseUrl = ollamaBaseUrl(settings, env);
      const model = compatibleModel({
        id: ref.id,
        name: "ollama",
        model: ref.model,
        baseUrl,
        ...traits,
        hints: { baseUrlHint: "OLLAMA_BASE_URL, OLLAMA_HOST or providers.ollama.baseUrl in agentry.json" },
      });
      return { model, baseUrl };
    }
    case "openai-compatible":
      return compatibleAdapter(ref, settings, traits);
  }
}

function compatibleAdapter(
  ref: ModelRef,
  settings: ModelSettings,
  traits: AdapterTraits,
): { model: Model; baseUrl: string } {
  const name = ref.endpoint ?? "";
  const endpoints = settings.openaiCompatible ?? {};
  const endpoint = endpoints[name];
  const key = `providers.openaiCompatible.${name}`;
  if (!endpoint) {
    const known = Object.keys(endpoints);
    const list = known.length ? ` Configured endpoints: ${known.join(", ")}.` : "";
    throw new ModelConfigError(
      `No OpenAI-compatible endpoint named "${name}" (model "${ref.id}"). Add ${key} = { "baseUrl": "http://localhost:8000/v1" } to agentry.json.${list}`,
    );
  }
  const model = ref.model || endpoint.model;
  if (!model)
    throw new ModelConfigError(
      `Model id "${ref.id}" names no model. Use openai-compatible:${name}/<model>, or set ${key}.model in agentry.json.`,
    );
  const baseUrl = requireUrl(endpoint.baseUrl, `${key}.baseUrl`, COMPATIBLE_EXAMPLE_URL);
  const id = `openai-compatible:${name}/${model}`;
  const adapter = compatibleModel({
    id,
    name,
    model,
    baseUrl,
    ...(endpoint.apiKey ? { apiKey: endpoint.apiKey } : {}),
    ...(endpoint.headers ? { headers: endpoint.headers } : {}),
    ...traits,
    // The endpoint's default model is known only here.
    images: takesImages(id, settings.imageInput),
    hints: { keyHint: `${key}.apiKey in agentry.json`, baseUrlHint: `${key}.baseUrl in agentry.json` },
  });
  return { model: adapter, baseUrl };
}

function compatibleModel(options: OpenAICompatibleModelOptions): Model {
  return deferredModel(options.id, async () =>
    (await import("./providers/openai-compatible.ts")).openaiCompatibleModel(options),
  );
}

/**
 * The API key and base URL of a hosted provider: agentry.json's `providers.<provider>`, else
 * `<PROVIDER>_API_KEY` and `<PROVIDER>_BASE_URL`. No key is a config error that says where to set one.
 */
function hostedEndpoint(
  ref: ModelRef,
  provider: "anthropic" | "openai",
  configured: { apiKey?: string | undefined; baseUrl?: string | undefined } | undefined,
  env: Env,
  exampleUrl: string,
): { apiKey: string; baseUrl: string | undefined } {
  const prefix = provider.toUpperCase();
  const apiKey = value(configured?.apiKey) ?? value(env[`${prefix}_API_KEY`]);
  if (!apiKey)
    throw new ModelConfigError(
      `No API key for ${ref.id}. Set ${prefix}_API_KEY or providers.${provider}.apiKey in agentry.json, or pick another provider with --model (e.g. ollama:qwen3 for a local model).`,
    );
  const baseUrl = optionalUrl(
    configured?.baseUrl ?? value(env[`${prefix}_BASE_URL`]),
    `providers.${provider}.baseUrl or ${prefix}_BASE_URL`,
    exampleUrl,
  );
  return { apiKey, baseUrl };
}

/** Ollama's own variables: OLLAMA_HOST may be `host:port` without a scheme; we always add `/v1`. */
function ollamaBaseUrl(settings: ModelSettings, env: Env): string {
  const raw =
    settings.ollama?.baseUrl ?? value(env.OLLAMA_BASE_URL) ?? value(env.OLLAMA_HOST) ?? OLLAMA_DEFAULT_HOST;
  const withScheme = /^[a-z]+:\/\//i.test(raw) ? raw : `http://${raw}`;
  const url = requireUrl(
    withScheme,
    "providers.ollama.baseUrl, OLLAMA_BASE_URL or OLLAMA_HOST",
    OLLAMA_DEFAULT_HOST,
  ).replace(/\/+$/, "");
  return url.endsWith("/v1") ? url : `${url}/v1`;
}

function optionalUrl(url: string | undefined, where: string, example: string): string | undefined {
  return url === undefined ? undefined : requireUrl(url, where, example);
}

/**
 * Refuses what fetch cannot speak before any request: a non-http(s) scheme would otherwise fail every
 * attempt as a "connection" error and be retried for seconds before the user hears of it.
 */
function requireUrl(url: string, where: string, example: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ModelConfigError(`"${url}" is not a valid URL; fix ${where} (e.g. ${example}).`);
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:")
    throw new ModelConfigError(
      `"${url}" is not an http(s) URL (scheme "${parsed.protocol.slice(0, -1)}"); fix ${where} (e.g. ${example}).`,
    );
  return url;
}

/** Empty strings count as unset, as in most shells' `VAR= cmd`. */
function value(text: string | undefined): string | undefined {
  const trimmed = text?.trim();
  return trimmed ? trimmed : undefined;
}
