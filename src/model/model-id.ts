import { ModelConfigError } from "./errors.ts";

/** Providers agentry can build a model for. */
export const PROVIDERS = ["anthropic", "openai", "ollama", "openai-compatible"] as const;
export type ProviderName = (typeof PROVIDERS)[number];

/** A parsed model id. `id` is the canonical `provider:model` form used in messages and transcripts. */
export interface ModelRef {
  provider: ProviderName;
  /** The provider's own model name, e.g. `claude-sonnet-5-5`; empty when an endpoint's default is meant. */
  model: string;
  /** `openai-compatible` only: the name of the configured endpoint (`providers.openaiCompatible.<name>`). */
  endpoint?: string;
  id: string;
}

/** Aliases every install knows; `settings.aliases` may override or add to them. */
export const DEFAULT_ALIASES: Readonly<Record<string, string>> = {
  sonnet: "anthropic:claude-sonnet-5-5",
  opus: "anthropic:claude-opus-5-5",
  haiku: "anthropic:claude-haiku-5-5",
};

/**
 * `inherit` means "the parent agent's model". Only the caller knows the parent, so it must resolve this
 * before asking for a model; `createModel("inherit")` throws.
 */
export const INHERIT = "inherit";

export function isInheritModel(id: string): boolean {
  return id.trim() === INHERIT;
}

/** A bare word (no `:` or `/`) is an alias, e.g. `sonnet`. */
export function isAlias(id: string): boolean {
  return /^[A-Za-z0-9_.-]+$/.test(id.trim());
}

/**
 * Resolves aliases (following chains such as `default → sonnet → anthropic:…`) to a full id.
 * Ids that are not aliases come back unchanged.
 */
export function resolveAlias(id: string, aliases: Record<string, string> = {}): string {
  const table: Record<string, string> = { ...DEFAULT_ALIASES, ...aliases };
  const seen: string[] = [];
  let current = id.trim();
  while (isAlias(current)) {
    if (current === INHERIT)
      throw new ModelConfigError(
        'The model "inherit" means "use the parent agent\'s model"; it has no meaning here. Pick a model with --model (e.g. anthropic:claude-sonnet-5-5).',
      );
    if (seen.includes(current))
      throw new ModelConfigError(
        `Model aliases form a cycle: ${[...seen, current].join(" → ")}. Fix providers.aliases in agentry.json.`,
      );
    const next = table[current];
    if (next === undefined) {
      const known = Object.keys(table).sort().join(", ");
      throw new ModelConfigError(
        `Unknown model "${current}". Use provider:model (e.g. anthropic:claude-sonnet-5-5, openai:gpt-5.5, ollama:qwen3) or an alias (${known}); define more under providers.aliases in agentry.json (e.g. { "providers": { "aliases": { "fast": "anthropic:claude-haiku-5-5" } } }).`,
      );
    }
    seen.push(current);
    current = next.trim();
  }
  return current;
}

/**
 * Parses `provider:model` (also `provider/model`). `openai-compatible:<name>/<model>` names a configured
 * endpoint and a model on it; `<name>:<model>` works too when `<name>` is one of `endpoints`.
 * Aliases are not accepted here: call `resolveAlias` first.
 */
export function parseModelId(id: string, endpoints: readonly string[] = []): ModelRef {
  const text = id.trim();
  const separator = splitIndex(text);
  if (separator < 0)
    throw new ModelConfigError(
      `Model id "${id}" has no provider. Write it as provider:model, e.g. anthropic:claude-sonnet-5-5 (providers: ${PROVIDERS.join(", ")}).`,
    );
  const prefix = text.slice(0, separator);
  const rest = text.slice(separator + 1);
  if (endpoints.includes(prefix) && !isProvider(prefix)) return compatibleRef(prefix, rest, id);
  if (!isProvider(prefix)) {
    const custom = endpoints.length
      ? `, or a configured openai-compatible endpoint (${endpoints.join(", ")})`
      : "";
    throw new ModelConfigError(
      `Unknown provider "${prefix}" in model id "${id}". Known providers: ${PROVIDERS.join(", ")}${custom}. For another OpenAI-compatible server, add it under providers.openaiCompatible.<name> in agentry.json and use openai-compatible:<name>/<model>.`,
    );
  }
  if (prefix === "openai-compatible") {
    const slash = rest.indexOf("/");
    const endpoint = slash < 0 ? rest : rest.slice(0, slash);
    return compatibleRef(endpoint, slash < 0 ? "" : rest.slice(slash + 1), id);
  }
  if (!rest) throw new ModelConfigError(`Model id "${id}" names no model after "${prefix}:".`);
  return { provider: prefix, model: rest, id: `${prefix}:${rest}` };
}

function compatibleRef(endpoint: string, model: string, original: string): ModelRef {
  if (!endpoint)
    throw new ModelConfigError(
      `Model id "${original}" names no endpoint. Use openai-compatible:<name>/<model>, where <name> is configured under providers.openaiCompatible in agentry.json.`,
    );
  const id = model ? `openai-compatible:${endpoint}/${model}` : `openai-compatible:${endpoint}`;
  return { provider: "openai-compatible", endpoint, model, id };
}

/** The first `:` separates provider and model; else the first `/` (the OpenCode spelling `anthropic/…`). */
function splitIndex(text: string): number {
  const colon = text.indexOf(":");
  const slash = text.indexOf("/");
  if (colon >= 0 && (slash < 0 || colon < slash)) return colon;
  return slash;
}

function isProvider(name: string): name is ProviderName {
  return (PROVIDERS as readonly string[]).includes(name);
}

/**
 * The endpoint a model id sends to — its provider, or `openai-compatible:<name>` — which, with the
 * provider settings, says where the conversation and the key go. Undefined for an id that cannot be read.
 */
export function modelEndpoint(
  id: string,
  aliases: Record<string, string> = {},
  endpoints: readonly string[] = [],
): string | undefined {
  try {
    const ref = parseModelId(resolveAlias(id, aliases), endpoints);
    return ref.provider === "openai-compatible" ? `${ref.provider}:${ref.endpoint ?? ""}` : ref.provider;
  } catch {
    return undefined;
  }
}
