import { dirname } from "node:path";
import { DEFAULT_MAX_TURNS, DEFAULT_TOOL_OUTPUT_LIMIT } from "../../agent/config.ts";
import type { McpServerConfig } from "../../mcp/server-config.ts";
import { modelEndpoint } from "../../model/model-id.ts";
import { defaultModelId, type ModelSettings } from "../../model/registry.ts";
import type { PermissionMode } from "../../permissions/gate.ts";
import { DEFAULT_SANDBOX_SETTINGS, type SandboxSettings } from "../../sandbox/policy.ts";
import type { SubagentLimits } from "../../subagents/index.ts";
import { UsageError } from "../errors.ts";
import { SETTINGS_ENV } from "./config-locations.ts";
import { type FleetSettings, fleetSettings } from "./fleet-settings.ts";
import type { ConfigLayer, Env, LoadedConfig, PeerLayer } from "./load-config.ts";
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
  /** The file each of `mcpServers` came from. */
  mcpSources: Record<string, string>;
  /** Variables set for commands and MCP servers (`env` of the files, Claude Code's settings `env`). */
  env: Record<string, string>;
  /** Instruction files the files name (`instructions`, OpenCode's too), relative to `baseDir`. */
  instructions: Array<{ patterns: string[]; baseDir: string; source: string }>;
  /** The OS sandbox of commands: what may widen it comes from the user only, never from the project. */
  sandbox: SandboxSettings;
  /** Where a fleet is (`fleet`): from the user's config only. */
  fleet: FleetSettings;
  /** Where traces go (`telemetry`): from the user's config only; the OTEL_* variables may add to it. */
  telemetry: NonNullable<ConfigLayer["config"]["telemetry"]> | undefined;
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
  const { ordered, loaded, withheld } = confineProject(raw, flags, env, trusted);
  // Highest precedence first.
  const layers = [...ordered].reverse();
  const fromFiles = <K extends "model" | "maxTurns" | "permissionMode">(key: K) => {
    for (const layer of layers) {
      const value = layer.config[key];
      if (value !== undefined)
        return { value: value as NonNullable<ConfigLayer["config"][K]>, source: layer.label };
    }
    return undefined;
  };
  const model =
    pick(flags.model, "--model") ??
    envModel(env, SETTINGS_ENV.model) ??
    envModel(env, "ANTHROPIC_MODEL") ??
    fromFiles("model");
  const maxTurns = pick(flags.maxTurns, "--max-turns") ??
    envPositiveInt(env, SETTINGS_ENV.maxTurns) ??
    fromFiles("maxTurns") ?? { value: DEFAULT_MAX_TURNS, source: "default" };
  const warnings: string[] = [];
  const permissionMode = pick(flags.permissionMode, "--permission-mode") ??
    envPermissionMode(env) ??
    fromFiles("permissionMode") ?? { value: "default" as const, source: "default" };
  for (const item of withheld) {
    if (item.kind === "never") warnings.push(`${item.source}: ${item.setting} ignored: ${item.reason}`);
  }

  const lowestFirst = ordered;
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
        ...(scopeOf(layer, loaded) === "project" ? { project: true as const } : {}),
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
    mcpSources: Object.assign(
      {},
      ...lowestFirst.map((layer) =>
        Object.fromEntries(Object.keys(layer.config.mcpServers ?? {}).map((name) => [name, layer.label])),
      ),
    ),
    env: Object.assign({}, ...lowestFirst.map((layer) => layer.config.env ?? {})),
    instructions: lowestFirst.flatMap((layer) =>
      layer.config.instructions === undefined
        ? []
        : [{ patterns: layer.config.instructions, baseDir: dirname(layer.path), source: layer.label }],
    ),
    sandbox: sandboxSettings(loaded, lowestFirst, env),
    fleet: fleetSettings(loaded),
    telemetry: loaded.user?.config.telemetry,
    files: lowestFirst.map((layer) => layer.path),
    layers: lowestFirst,
    warnings,
    trusted,
    withheld,
  };
}

/**
 * Every config layer lowest first — the user's peers, the user's file, the project's peers, the
 * project's file — each of the project's as it may apply (`confineProjectConfig`).
 */
function confineProject(
  loaded: LoadedConfig,
  flags: SettingFlags,
  env: Env,
  trusted: boolean,
): { ordered: ConfigLayer[]; loaded: LoadedConfig; withheld: Withheld[] } {
  const peers = loaded.peers ?? [];
  const withheld: Withheld[] = [];
  const sameEndpoint = endpointCheck(loaded, flags, env);
  const confine = (layer: ConfigLayer): ConfigLayer => {
    const confined = confineProjectConfig(layer, { user: loaded.user?.config, trusted, sameEndpoint });
    withheld.push(...confined.withheld);
    return { ...layer, config: confined.config };
  };
  const project = loaded.project === undefined ? undefined : confine(loaded.project);
  const projectPeers = peers
    .filter((layer) => layer.scope === "project")
    .map((layer) => ({ ...layer, ...confine(layer) }));
  const ordered = [
    ...peers.filter((layer) => layer.scope === "user"),
    ...(loaded.user === undefined ? [] : [loaded.user]),
    ...projectPeers,
    ...(project === undefined ? [] : [project]),
  ];
  return {
    ordered,
    loaded: {
      ...loaded,
      ...(project === undefined ? {} : { project }),
      peers: [...peers.filter((l) => l.scope === "user"), ...projectPeers],
    },
    withheld,
  };
}

function scopeOf(layer: ConfigLayer, loaded: LoadedConfig): "user" | "project" {
  if (layer === loaded.project) return "project";
  if (layer === loaded.user) return "user";
  return (layer as PeerLayer).scope ?? "project";
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
 * The OS sandbox: whether it is on comes from the user's config (or AGENTRY_SANDBOX) only; the lists
 * add up over every file, the project's as they may apply (`confineProjectConfig` removed the rest).
 */
function sandboxSettings(
  loaded: LoadedConfig,
  lowestFirst: readonly ConfigLayer[],
  env: Env,
): SandboxSettings {
  const user = loaded.user?.config.sandbox ?? {};
  const all = lowestFirst.map((layer) => layer.config.sandbox ?? {});
  const switchedOff = /^(0|off|false|no)$/i.test(env[SETTINGS_ENV.sandbox]?.trim() ?? "");
  return {
    enabled: !switchedOff && (user.enabled ?? DEFAULT_SANDBOX_SETTINGS.enabled),
    allowedHosts: all.flatMap((sandbox) => sandbox.network?.allowedHosts ?? []),
    denyRead: all.flatMap((sandbox) => sandbox.denyRead ?? []),
    allowWrite: all.flatMap((sandbox) => sandbox.allowWrite ?? []),
    env: all.flatMap((sandbox) => sandbox.env ?? []),
  };
}

/** A model from an environment variable; Claude Code's `ANTHROPIC_MODEL` may be a bare Claude id. */
function envModel(env: Env, name: string): Sourced<string> | undefined {
  const value = env[name]?.trim();
  if (!value) return undefined;
  const id =
    name === "ANTHROPIC_MODEL" && !/[:/]/.test(value) && value.startsWith("claude-")
      ? `anthropic:${value}`
      : value;
  return { value: id, source: name };
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
