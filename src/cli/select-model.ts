import { isAgentryError } from "../errors/agentry-error.ts";
import type { Model } from "../model/model.ts";
import type { ModelLimiters } from "../model/model-limiters.ts";
import { SETTINGS_ENV, type Settings } from "./config/resolve-settings.ts";
import { UsageError } from "./errors.ts";

/**
 * Builds the run's model: `--model`, then AGENTRY_MODEL, then (for a resumed session) the session's
 * model, then the config files, then the registry's default for the provider keys in the environment. Loading the registry pulls in the AI SDK providers, so it happens only here.
 */
export async function selectModel(
  settings: Settings,
  env: Record<string, string | undefined>,
  resumedModel?: string,
  limiters?: ModelLimiters,
): Promise<Model> {
  const { createModel, defaultModelId } = await import("../model/registry.ts");
  // A resumed session keeps its model over config files; only a flag or env var switches it.
  const chosen = settings.model;
  const fromCommandLine =
    chosen && (chosen.source === "--model" || chosen.source === SETTINGS_ENV.model)
      ? chosen.value
      : undefined;
  const id = fromCommandLine ?? resumedModel ?? chosen?.value ?? defaultModelId(env, settings.providers);
  if (id === undefined) throw new UsageError(NO_PROVIDER_MESSAGE);
  try {
    return createModel(id, settings.providers, env, limiters === undefined ? {} : { limiters });
  } catch (error) {
    // A model the user named that cannot be built: say where the name came from.
    if (!isAgentryError(error) || error.kind !== "user" || !settings.model) throw error;
    const from = ` (model "${id}" from ${settings.model.source})`;
    throw new UsageError(`${error.message}${from}`, { cause: error });
  }
}

export const NO_PROVIDER_MESSAGE = [
  "No model provider is configured. Do one of:",
  "  - set ANTHROPIC_API_KEY to use Claude (Anthropic)",
  "  - set OPENAI_API_KEY to use OpenAI",
  "  - pass --model <provider:model>, e.g. --model ollama:qwen3 for a local Ollama,",
  '    or set "model" in agentry.json or AGENTRY_MODEL',
  "See docs/providers.md. To see agentry at work first, `agentry demo` needs no key: it runs offline.",
].join("\n");
