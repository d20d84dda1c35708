import { DEFAULT_MAX_TURNS, DEFAULT_TOOL_OUTPUT_LIMIT } from "../../agent/config.ts";
import { confineProjectRules } from "../../permissions/project-rules.ts";
import { PermissionConfigError, rulesetFromConfig } from "../../permissions/ruleset-from-config.ts";
import { DEFAULT_SUBAGENT_LIMITS } from "../../subagents/index.ts";
import type { ConfigLayer } from "./load-config.ts";
import type { ConfigFile } from "./schema.ts";
import type { Withheld } from "./withheld.ts";

export interface ConfineOptions {
  /** The user's config: a project's limit applies untrusted when it is no larger than the user's. */
  user: ConfigFile | undefined;
  /** Whether the user trusts the folder (`agentry trust`). */
  trusted: boolean;
  /**
   * Whether a model id sends to the endpoint the run would use without the project (the same
   * provider, base URL and key): a project may pick another model there, not another endpoint.
   */
  sameEndpoint: (modelId: string) => boolean;
}

/** Variables of the providers and of agentry itself: where keys go and how agentry runs are the user's. */
const PROVIDER_VARIABLES = /^(ANTHROPIC|OPENAI|OLLAMA|AGENTRY|CLAUDE_CODE)_/;

/** A subagent limit a smaller value narrows; the others (heartbeats, polling) neither widen nor narrow. */
const SUBAGENT_CAPS = [
  "maxDepth",
  "maxConcurrent",
  "maxDescendants",
  "maxTurns",
  "timeoutMs",
  "stallTimeoutMs",
  "maxTokens",
  "maxDurationMs",
] as const;

/**
 * The project config file as it may apply, and what was withheld. Narrowing applies at once (deny
 * and ask rules, smaller limits, `sandbox.denyRead`, plan mode); widening only in a trusted folder
 * (allow rules — applied as `confineProjectRules` says —, MCP servers, larger limits, other permission
 * modes, network, writable paths and variables of the sandbox, the `workflow` tool, models on another
 * endpoint, variables for commands); and never, trusted or not, where the user's keys go (`providers`
 * endpoints and their variables), the fleet, the sandbox switched off or `bypass`.
 */
export function confineProjectConfig(
  layer: ConfigLayer,
  options: ConfineOptions,
): { config: ConfigFile; withheld: Withheld[] } {
  const source = layer.label;
  const project = layer.config;
  const user = options.user ?? {};
  const withheld: Withheld[] = [];
  const config: ConfigFile = {};
  const widening = (setting: string, value: unknown): boolean => {
    if (options.trusted) return false;
    withheld.push({ source, setting, kind: "untrusted", value });
    return true;
  };
  const never = (setting: string, value: unknown, reason: string) =>
    withheld.push({ source, setting, kind: "never", value, reason });
  const userFile = "your user config (~/.config/agentry/config.json)";

  if (project.$schema !== undefined) config.$schema = project.$schema;
  if (project.model !== undefined) {
    if (options.sameEndpoint(project.model) || !widening(`model ${project.model}`, project.model))
      config.model = project.model;
  }
  const providers = confineProviders(project.providers, options, widening, never);
  if (providers !== undefined) config.providers = providers;

  const limit = <K extends "maxTurns" | "toolOutputLimit" | "bashTimeoutSeconds">(key: K, base: number) => {
    const value = project[key];
    if (value === undefined) return;
    if (value <= (user[key] ?? base) || !widening(`${key} ${value}`, value)) config[key] = value;
  };
  limit("maxTurns", DEFAULT_MAX_TURNS);
  limit("toolOutputLimit", DEFAULT_TOOL_OUTPUT_LIMIT);
  limit("bashTimeoutSeconds", 120);

  const mode = project.permissionMode;
  if (mode === "bypass") {
    never(
      'permissionMode "bypass"',
      mode,
      "a project's config cannot bypass permissions; use --permission-mode bypass, AGENTRY_PERMISSION_MODE or your user config",
    );
  } else if (mode !== undefined) {
    if (mode === "default" || mode === "plan" || !widening(`permissionMode "${mode}"`, mode))
      config.permissionMode = mode;
  }

  if (project.permission !== undefined) {
    config.permission = project.permission;
    for (const rule of projectAllows(project.permission, options.trusted)) {
      const setting = `permission ${rule.permission} '${rule.pattern}' allow`;
      const value = { permission: rule.permission, pattern: rule.pattern, action: rule.action };
      if (options.trusted)
        never(
          setting,
          value,
          "a project never allows leaving the sandbox or the workspace; allow it in your user config",
        );
      else withheld.push({ source, setting, kind: "untrusted", value });
    }
  }

  if (project.subagents !== undefined) {
    const subagents: NonNullable<ConfigFile["subagents"]> = { ...project.subagents };
    for (const key of SUBAGENT_CAPS) {
      const value = project.subagents[key];
      if (value === undefined) continue;
      const base = user.subagents?.[key] ?? DEFAULT_SUBAGENT_LIMITS[key] ?? Number.POSITIVE_INFINITY;
      if (value > base && widening(`subagents.${key} ${value}`, value)) delete subagents[key];
    }
    config.subagents = subagents;
  }
  if (project.modelConcurrency !== undefined) {
    const concurrency: NonNullable<ConfigFile["modelConcurrency"]> = {};
    for (const [key, value] of Object.entries(project.modelConcurrency) as Array<
      [keyof typeof concurrency, number | undefined]
    >) {
      if (value === undefined) continue;
      const base = user.modelConcurrency?.[key] ?? Number.POSITIVE_INFINITY;
      if (value <= base || !widening(`modelConcurrency.${key} ${value}`, value)) concurrency[key] = value;
    }
    config.modelConcurrency = concurrency;
  }
  if (project.workflows?.enabled !== undefined) {
    const enabled = project.workflows.enabled;
    if (!enabled || !widening("workflows.enabled", enabled)) config.workflows = { enabled };
  }
  if (project.compaction !== undefined) {
    const { model, ...rest } = project.compaction;
    config.compaction = rest;
    if (model !== undefined && (options.sameEndpoint(model) || !widening(`compaction.model ${model}`, model)))
      config.compaction.model = model;
  }
  if (project.remote?.timeoutMs !== undefined) {
    const value = project.remote.timeoutMs;
    if (value <= (user.remote?.timeoutMs ?? 30_000) || !widening(`remote.timeoutMs ${value}`, value))
      config.remote = { timeoutMs: value };
  }
  if (project.mcpServers !== undefined) {
    const servers: NonNullable<ConfigFile["mcpServers"]> = {};
    for (const [name, server] of Object.entries(project.mcpServers)) {
      if (!widening(`MCP server "${name}"`, server)) servers[name] = server;
    }
    config.mcpServers = servers;
  }
  if (project.sandbox !== undefined) {
    const { enabled, denyRead, ...wider } = project.sandbox;
    if (denyRead !== undefined) config.sandbox = { denyRead };
    if (enabled === false)
      never(
        "sandbox.enabled false",
        enabled,
        `a project cannot switch the OS sandbox off; set it in ${userFile} or AGENTRY_SANDBOX=off`,
      );
    const kept = Object.entries(wider).filter(
      ([key, value]) => value !== undefined && !widening(`sandbox.${key}`, value),
    );
    if (kept.length > 0) config.sandbox = { ...config.sandbox, ...Object.fromEntries(kept) };
  }
  if (project.env !== undefined) {
    const env: Record<string, string> = {};
    for (const [name, value] of Object.entries(project.env)) {
      if (PROVIDER_VARIABLES.test(name))
        never(`env ${name}`, value, "a project does not set the providers' or agentry's own variables");
      else if (!widening(`env ${name}`, value)) env[name] = value;
    }
    if (Object.keys(env).length > 0) config.env = env;
  }
  // Prompts, not code: they apply untrusted (read from inside the workspace only).
  if (project.instructions !== undefined) config.instructions = project.instructions;
  if (project.telemetry !== undefined) {
    never(
      "telemetry",
      project.telemetry,
      `a repository does not choose where your traces go; set telemetry in ${userFile}`,
    );
  }
  if (project.trustedFolders !== undefined) {
    never(
      "trustedFolders",
      project.trustedFolders,
      `a project cannot trust folders; list them in ${userFile}`,
    );
  }
  if (project.fleet !== undefined) {
    never(
      "fleet",
      project.fleet,
      `a project's config cannot send work to a Redis or a queue; set fleet in ${userFile}, or use --store/--queue`,
    );
  }
  if (project.retention !== undefined) {
    never(
      "retention",
      project.retention,
      `a project's config cannot decide what agentry deletes; set retention in ${userFile}`,
    );
  }
  return { config, withheld };
}

/**
 * `providers`: where the user's keys go is never a repository's choice (base URLs, keys, headers,
 * the endpoints themselves); aliases are model choices (another endpoint needs trust); prices,
 * context windows, retries and which models read images only change what agentry computes and sends.
 */
function confineProviders(
  providers: ConfigFile["providers"],
  options: ConfineOptions,
  widening: (setting: string, value: unknown) => boolean,
  never: (setting: string, value: unknown, reason: string) => void,
): ConfigFile["providers"] {
  if (providers === undefined) return undefined;
  const { aliases, prices, contextWindows, retry, imageInput, ...endpoints } = providers;
  for (const [name, value] of Object.entries(endpoints)) {
    if (value !== undefined)
      never(
        `providers.${name}`,
        value,
        "a repository does not choose where your API keys go; set providers in your user config (~/.config/agentry/config.json)",
      );
  }
  const kept: NonNullable<ConfigFile["providers"]> = {};
  if (prices !== undefined) kept.prices = prices;
  if (contextWindows !== undefined) kept.contextWindows = contextWindows;
  if (retry !== undefined) kept.retry = retry;
  if (imageInput !== undefined) kept.imageInput = imageInput;
  if (aliases !== undefined) {
    const allowed = Object.entries(aliases).filter(
      ([alias, target]) =>
        options.sameEndpoint(target) || !widening(`providers.aliases.${alias} ${target}`, target),
    );
    if (allowed.length > 0) kept.aliases = Object.fromEntries(allowed);
  }
  return Object.keys(kept).length > 0 ? kept : undefined;
}

/**
 * The project's allow rules that do not apply: untrusted, every allow; trusted, the allows of what no
 * project may allow. An unreadable `permission` gives none here: `permissionRules` reports it.
 */
function projectAllows(permission: unknown, trusted: boolean) {
  try {
    return confineProjectRules(rulesetFromConfig(permission), [], trusted).withheld;
  } catch (error) {
    if (error instanceof PermissionConfigError) return [];
    throw error;
  }
}
