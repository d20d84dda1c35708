import { defaultModelId } from "../../model/registry.ts";
import { PermissionConfigError, rulesetFromConfig } from "../../permissions/ruleset-from-config.ts";
import { type Env, SETTINGS_ENV } from "./config-locations.ts";
import type { ProjectView } from "./read-project.ts";

/** One effective setting and where its value came from. */
export interface SettingSource {
  /** `model`, `subagents.maxDepth`, `mcpServers.github`, `permission bash 'rm *'` … */
  key: string;
  value: unknown;
  /** `--model`, `AGENTRY_MODEL`, `agentry.json`, the user's config file, `default` … */
  source: string;
  /** A project rule in a folder the user has not trusted: it can only narrow. */
  narrowOnly?: true;
}

/**
 * Every setting of a workspace that a file, a variable or a flag gave, with its source — the project's
 * as it applies (what was withheld is `view.withheld`). Keys are flattened to their leaves; lists are
 * one value. The model, turns and permission mode always appear, with `default` when nothing set them.
 */
export function settingSources(view: ProjectView, env: Env): SettingSource[] {
  const { settings } = view;
  const sources: SettingSource[] = [];
  const model = settings.model ?? defaultModel(env, settings.providers);
  if (model !== undefined) sources.push({ key: "model", ...model });
  sources.push({ key: "maxTurns", ...settings.maxTurns });
  sources.push({ key: "permissionMode", ...settings.permissionMode });

  const fromFiles = new Map<string, SettingSource>();
  // Lowest precedence first, so the project's (as it applied) wins where both set a key.
  for (const layer of settings.layers) {
    for (const [key, value] of flatten(layer.config as Record<string, unknown>)) {
      if (key === "$schema" || key === "permission" || key.startsWith("permission.")) continue;
      // Hooks are listed one by one below, from every file that holds them (Claude Code's too).
      if (key.startsWith("hooks.")) continue;
      if (key === "model" || key === "maxTurns" || key === "permissionMode") continue;
      // Lists of the sandbox add up across files; anything else, the later file's replaces.
      const slot = Array.isArray(value) && key.startsWith("sandbox.") ? `${key}\u0000${layer.label}` : key;
      const shown = isSecretKey(key) ? "(set, not shown)" : value;
      fromFiles.set(slot, { key, value: shown, source: layer.label });
    }
  }
  if (env[SETTINGS_ENV.sandbox]?.trim())
    fromFiles.set("sandbox.enabled", {
      key: "sandbox.enabled",
      value: settings.sandbox.enabled,
      source: SETTINGS_ENV.sandbox,
    });
  if (settings.modelConcurrency.max !== undefined && env[SETTINGS_ENV.maxConcurrency]?.trim())
    fromFiles.set("modelConcurrency.max", {
      key: "modelConcurrency.max",
      value: settings.modelConcurrency.max,
      source: SETTINGS_ENV.maxConcurrency,
    });
  sources.push(...fromFiles.values());

  for (const hook of view.hooks.hooks)
    sources.push({
      key: `hook ${hook.event}${hook.matcher === undefined ? "" : `[${hook.matcher}]`}`,
      value: hook.command,
      source: hook.source.label,
    });
  for (const layer of settings.permission) {
    let rules: ReturnType<typeof rulesetFromConfig>;
    try {
      rules = rulesetFromConfig(layer.value);
    } catch (error) {
      if (error instanceof PermissionConfigError) continue;
      throw error;
    }
    for (const rule of rules)
      sources.push({
        key: `permission ${rule.permission} '${rule.pattern}'`,
        value: rule.action,
        source: layer.source,
        ...(layer.project && !settings.trusted ? { narrowOnly: true as const } : {}),
      });
  }
  return sources;
}

/** The model a run would pick when nothing names one, and why. */
function defaultModel(env: Env, providers: ProjectView["settings"]["providers"]) {
  const id = defaultModelId(env, providers);
  if (id === undefined) return undefined;
  const key = id.startsWith("anthropic:") ? "ANTHROPIC_API_KEY" : "OPENAI_API_KEY";
  return { value: id, source: `default (${key} is set)` };
}

function flatten(value: Record<string, unknown>, prefix = ""): Array<[string, unknown]> {
  return Object.entries(value).flatMap(([key, item]): Array<[string, unknown]> => {
    const path = prefix === "" ? key : `${prefix}.${key}`;
    if (item === undefined) return [];
    // An object is its leaves; one left empty (every MCP server withheld) shows nothing.
    if (typeof item === "object" && item !== null && !Array.isArray(item))
      return flatten(item as Record<string, unknown>, path);
    return [[path, item]];
  });
}

/** Keys, tokens and headers are secrets: `agentry config` says they are set, never what they are. */
function isSecretKey(key: string): boolean {
  return /(^|\.)(apiKey|headers|env)(\.|$)/i.test(key) && !key.startsWith("sandbox.env");
}
