import { DEFAULT_MAX_TURNS, DEFAULT_TOOL_OUTPUT_LIMIT } from "../../agent/config.ts";
import type { McpServerConfig } from "../../mcp/server-config.ts";
import { modelEndpoint } from "../../model/model-id.ts";
import { defaultModelId, type ModelSettings } from "../../model/registry.ts";
import type { PermissionMode } from "../../permissions/gate.ts";
import { DEFAULT_SANDBOX_SETTINGS, type SandboxSettings } from "../../sandbox/policy.ts";
import type { SubagentLimits } from "../../subagents/limits.ts";
import { UsageError } from "../errors.ts";
import { SETTINGS_ENV } from "./config-locations.ts";
import { type FleetSettings, fleetSettings } from "./fleet-settings.ts";
import type { ConfigLayer, Env, LoadedConfig } from "./load-config.ts";
import { confineProjectConfig } from "./project-config.ts";
import { PERMISSION_MODES } from "./schema.ts";
import type { Withheld } from "./withheld.ts";

/** Values given on the command line; they win over everything else. */
export interface SettingFlags {
  model?: string;
  maxTurns?: number;
  permissionMode?: PermissionMode;
  /** `--max-concurrency`: the most model calls in flight per endpoint. */
  maxConcurrency?: number;
}

/** The bounds of the adaptive model-call limit (`ModelLimiters`); unset keys take its defaults. */
export interface ModelConcurrency {
  max?: number;
  min?: number;
  initial?: number;
}

/** `compaction` of the config files, project keys over user keys. */
export interface CompactionSettings {
  enabled: boolean;
  threshold?: number;
  keepTurns?: number;
  /** The summary model, and which file named it. */
  model?: Sourced<string>;
}

/** Where a setting came from, for messages ("--model", "AGENTRY_MODEL", "agentry.json"). */
export interface Sourced<T> {
  value: T;
  source: string;
}

/** Every setting of a run, after applying flag > env > project > user > defaults. */
export interface Settings {
  /** Undefined when nothing chose a model; the run then asks the registry for a default. */
  model: Sourced<string> | undefined;
  providers: ModelSettings;
  maxTurns: Sourced<number>;
  permissionMode: Sourced<PermissionMode>;
  /**
   * The `permission` value of each config file, lowest precedence first (rules are last-match-wins);
   * `project` marks the repository's, which `permissionRules` confines (`confineProjectRules`).
   */
  permission: Array<Sourced<unknown> & { project?: true }>;
  toolOutputLimit: number;
  /** The `subagents` limits, project keys over user keys. */
  subagents: Partial<SubagentLimits>;
  /** `modelConcurrency` (project keys over user keys), `max` from `--max-concurrency` or its variable first. */
  modelConcurrency: ModelConcurrency;
  bashTimeoutSeconds: number | undefined;
  /** `remote.timeoutMs`: how long a remote (A2A) agent may take to begin an answer; undefined = 30 s. */
  remoteTimeoutMs: number | undefined;
  compaction: CompactionSettings;
  /** Whether the root agent gets the opt-in `workflow` tool (`workflows.enabled`, project over user). */
  workflows: boolean;
  /** MCP servers by name; a project file's server replaces the user's of the same name. */
  mcpServers: Record<string, McpServerConfig>;
  /** The OS sandbox of commands: what may widen it comes from the user only, never from the project. */
  sandbox: SandboxSettings;
  /** Where a fleet is (`fleet`): from the user's config only. */
  fleet: FleetSettings;
  /** The config files that were read, for diagnostics. */
  files: string[];
  /** Their contents as they applied, lowest precedence first (the project's after `confineProjectConfig`). */
  layers: ConfigLayer[];
  /** Settings that were read but not applied, and why (printed as warnings). */
  warnings: string[];
  /** Whether the project's widening settings apply: the user trusts this folder (`agentry trust`). */
  trusted: boolean;
  /** What the project's files hold that was not applied (`agentry config` lists it). */
  withheld: Withheld[];
}

export interface ResolveOptions {
  /** The user trusts the folder: the project's widening settings apply. Default false (fail closed). */
  trusted?: boolean;
}

export { SETTINGS_ENV };

export function resolveSettings(
  raw: LoadedConfig,
  flags: SettingFlags,
  env: Env,
  options: ResolveOptions = {},
): Settings {
  const trusted = options.trusted ?? false;
  const { loaded, withheld } = confineProject(raw, flags, env, trusted);
  // Highest precedence first.
  const layers = [loaded.project, loaded.user].filter((layer): layer is ConfigLayer => layer !== undefined);
  const fromFiles = <K extends "model" | "maxTurns" | "permissionMode">(key: K) => {
    for (const layer of layers) {
      const value = layer.config[key];
      if (value !== undefined)
        return { value: value as NonNullable<ConfigLayer["config"][K]>, source: layer.label };
    }
    return undefined;
  };
  const envModel = env[SETTINGS_ENV.model]?.trim();
  const model =
    pick(flags.model, "--model") ??
    (envModel ? { value: envModel, source: SETTINGS_ENV.model } : undefined) ??
    fromFiles("model");
  const maxTurns = pick(flags.maxTurns, "--max-turns") ??
    envPositiveInt(env, SETTINGS_ENV.maxTurns) ??
    fromFiles("maxTurns") ?? { value: DEFAULT_MAX_TURNS, source: "default" };
  const warnings: string[] = [];
  const permissionMode = pick(flags.permissionMode, "--permission-mode") ??
    envPermissionMode(env) ??
    modeFromFiles(loaded) ?? { value: "default" as const, source: "default" };
  for (const item of withheld) {
    if (item.kind === "never") warnings.push(`${item.source}: ${item.setting} ignored: ${item.reason}`);
  }

  const lowestFirst = [...layers].reverse();
  let providers: ModelSettings = {};
  for (const layer of lowestFirst) {
    if (layer.config.providers) providers = deepMerge(providers, layer.config.providers) as ModelSettings;
  }
  return {
    model,
    providers,
    maxTurns,
    permissionMode,
    permission: lowestFirst
      .filter((layer) => layer.config.permission !== undefined)
      .map((layer) => ({
        value: layer.config.permission,
        source: layer.label,
        ...(layer === loaded.project ? { project: true as const } : {}),
      })),
    toolOutputLimit:
      layers.find((l) => l.config.toolOutputLimit)?.config.toolOutputLimit ?? DEFAULT_TOOL_OUTPUT_LIMIT,
    bashTimeoutSeconds: layers.find((l) => l.config.bashTimeoutSeconds)?.config.bashTimeoutSeconds,
    remoteTimeoutMs: layers.find((l) => l.config.remote?.timeoutMs)?.config.remote?.timeoutMs,
    subagents: Object.assign({}, ...lowestFirst.map((layer) => definedOnly(layer.config.subagents ?? {}))),
    modelConcurrency: modelConcurrency(lowestFirst, flags, env),
    compaction: compactionSettings(lowestFirst),
    workflows:
      layers.find((layer) => layer.config.workflows?.enabled !== undefined)?.config.workflows?.enabled ??
      false,
    mcpServers: Object.assign({}, ...lowestFirst.map((layer) => layer.config.mcpServers ?? {})),
    sandbox: sandboxSettings(loaded, env),
    fleet: fleetSettings(loaded),
    files: lowestFirst.map((layer) => layer.path),
    layers: lowestFirst,
    warnings,
    trusted,
    withheld,
  };
}

/** The project's config file as it may apply (`confineProjectConfig`). */
function confineProject(
  loaded: LoadedConfig,
  flags: SettingFlags,
  env: Env,
  trusted: boolean,
): { loaded: LoadedConfig; withheld: Withheld[] } {
  const { project, user } = loaded;
  if (project === undefined) return { loaded, withheld: [] };
  const confined = confineProjectConfig(project, {
    user: user?.config,
    trusted,
    sameEndpoint: endpointCheck(loaded, flags, env),
  });
  return {
    loaded: { ...loaded, project: { ...project, config: confined.config } },
    withheld: confined.withheld,
  };
}

/**
 * Whether a model id a project names stays on the endpoint the run would use without the project:
 * the model of the flags, the environment or the user's config, else the default for the keys set.
 */
export function endpointCheck(
  loaded: LoadedConfig,
  flags: SettingFlags,
  env: Env,
): (modelId: string) => boolean {
  const user = loaded.user?.config;
  const providers = (user?.providers ?? {}) as ModelSettings;
  const compatible = Object.keys(providers.openaiCompatible ?? {});
  const baseModel =
    flags.model ??
    (env[SETTINGS_ENV.model]?.trim() || undefined) ??
    user?.model ??
    defaultModelId(env, providers);
  const base = baseModel === undefined ? undefined : modelEndpoint(baseModel, providers.aliases, compatible);
  return (id) => base !== undefined && modelEndpoint(id, providers.aliases, compatible) === base;
}

/**
 * The OS sandbox: the user's config, the project's `denyRead` (narrowing), and in a trusted folder the
 * project's hosts, writable paths and variables (`confineProjectConfig` has removed what may not apply).
 */
function sandboxSettings(loaded: LoadedConfig, env: Env): SandboxSettings {
  const user = loaded.user?.config.sandbox ?? {};
  const project = loaded.project?.config.sandbox ?? {};
  const switchedOff = /^(0|off|false|no)$/i.test(env[SETTINGS_ENV.sandbox]?.trim() ?? "");
  return {
    enabled: !switchedOff && (user.enabled ?? DEFAULT_SANDBOX_SETTINGS.enabled),
    allowedHosts: [...(user.network?.allowedHosts ?? []), ...(project.network?.allowedHosts ?? [])],
    denyRead: [...(user.denyRead ?? []), ...(project.denyRead ?? [])],
    allowWrite: [...(user.allowWrite ?? []), ...(project.allowWrite ?? [])],
    env: [...(user.env ?? []), ...(project.env ?? [])],
  };
}

/** `permissionMode` from the files, the project's first (`confineProjectConfig` kept only what may apply). */
function modeFromFiles(loaded: LoadedConfig): Sourced<PermissionMode> | undefined {
  for (const layer of [loaded.project, loaded.user]) {
    const mode = layer?.config.permissionMode;
    if (layer !== undefined && mode !== undefined) return { value: mode, source: layer.label };
  }
  return undefined;
}

function modelConcurrency(lowestFirst: ConfigLayer[], flags: SettingFlags, env: Env): ModelConcurrency {
  const merged: ModelConcurrency = {};
  let maxSource = "";
  for (const layer of lowestFirst) {
    const values = layer.config.modelConcurrency ?? {};
    if (values.max !== undefined) maxSource = layer.label;
    Object.assign(merged, definedOnly(values));
  }
  const override =
    pick(flags.maxConcurrency, "--max-concurrency") ?? envPositiveInt(env, SETTINGS_ENV.maxConcurrency);
  if (override !== undefined) {
    merged.max = override.value;
    maxSource = override.source;
  }
  if (merged.max !== undefined && merged.min !== undefined && merged.min > merged.max) {
    throw new UsageError(
      `modelConcurrency.min (${merged.min}) is above the most model calls allowed at once (${merged.max}, from ${maxSource}); lower the minimum or raise the maximum`,
    );
  }
  return merged;
}

function compactionSettings(lowestFirst: ConfigLayer[]): CompactionSettings {
  const settings: CompactionSettings = { enabled: true };
  for (const layer of lowestFirst) {
    const values = layer.config.compaction ?? {};
    if (values.enabled !== undefined) settings.enabled = values.enabled;
    if (values.threshold !== undefined) settings.threshold = values.threshold;
    if (values.keepTurns !== undefined) settings.keepTurns = values.keepTurns;
    if (values.model !== undefined) settings.model = { value: values.model, source: layer.label };
  }
  return settings;
}

function definedOnly(values: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined));
}

function pick<T>(value: T | undefined, source: string): Sourced<T> | undefined {
  return value === undefined ? undefined : { value, source };
}

function envPositiveInt(env: Env, name: string): Sourced<number> | undefined {
  const raw = env[name]?.trim();
  if (!raw) return undefined;
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value <= 0) {
    throw new UsageError(`${name} must be a positive integer (got ${JSON.stringify(raw)})`);
  }
  return { value, source: name };
}

function envPermissionMode(env: Env): Sourced<PermissionMode> | undefined {
  const name = SETTINGS_ENV.permissionMode;
  const raw = env[name]?.trim();
  if (!raw) return undefined;
  if (!isPermissionMode(raw)) {
    throw new UsageError(
      `${name} must be one of ${PERMISSION_MODES.join(", ")} (got ${JSON.stringify(raw)})`,
    );
  }
  return { value: raw, source: name };
}

export function isPermissionMode(value: string): value is PermissionMode {
  return (PERMISSION_MODES as readonly string[]).includes(value);
}

/** Plain objects merge key by key (later wins); everything else is replaced. */
function deepMerge(base: unknown, over: unknown): unknown {
  if (!isPlainObject(base) || !isPlainObject(over)) return over;
  const merged: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(over)) merged[key] = deepMerge(merged[key], value);
  return merged;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
