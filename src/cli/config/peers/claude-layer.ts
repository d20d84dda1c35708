import { isAbsolute, join, resolve } from "node:path";
import { claudeRule } from "../../../permissions/claude-rule.ts";
import type { PermissionAction, Ruleset } from "../../../permissions/types.ts";
import { UsageError } from "../../errors.ts";
import type { PeerLayer } from "../load-config.ts";
import type { ConfigFile } from "../schema.ts";
import type { ClaudeSettingsFile } from "./claude-settings.ts";
import { claudeModel } from "./peer-models.ts";

const MODES: Record<string, ConfigFile["permissionMode"]> = {
  default: "default",
  acceptEdits: "accept-edits",
  plan: "plan",
  bypassPermissions: "bypass",
};

/**
 * A Claude Code settings file with its meaning in agentry's keys: `permissions` lists as rules (a deny
 * or ask agentry cannot read makes the file an error: dropping it would widen; an allow it cannot read
 * is left out), `additionalDirectories` as allows of `external_directory`, `defaultMode` as the
 * permission mode, `model`, and `env` for commands. `hooks` are read by the hooks.
 */
export function claudeLayer(file: ClaudeSettingsFile, workspace: string, home: string): PeerLayer {
  const { settings } = file;
  const notes: string[] = [];
  const config: ConfigFile = {};
  const rules: Ruleset = [];
  for (const action of ["allow", "ask", "deny"] as const) {
    for (const entry of settings.permissions?.[action] ?? []) {
      const rule = claudeRule(entry);
      if (typeof rule !== "string") {
        for (const pattern of rule.patterns) rules.push({ permission: rule.permission, pattern, action });
        continue;
      }
      if (/^unknown tool/.test(rule)) notes.push(`permissions.${action}: ${rule}: agentry has no such tool`);
      else if (action === "allow") notes.push(`permissions.allow: ${rule}: left out`);
      else
        throw new UsageError(
          `${file.label}: permissions.${action}: ${rule}; fix it so agentry can honour it`,
        );
    }
  }
  const base = file.scope === "project" ? workspace : home;
  for (const directory of settings.permissions?.additionalDirectories ?? []) {
    const expanded = directory.startsWith("~/") ? join(home, directory.slice(2)) : directory;
    const absolute = isAbsolute(expanded) ? expanded : resolve(base, expanded);
    for (const pattern of [absolute, `${absolute}/*`])
      rules.push({ permission: "external_directory", pattern, action: "allow" satisfies PermissionAction });
  }
  if (rules.length > 0) config.permission = rules;
  const mode = settings.permissions?.defaultMode;
  if (mode !== undefined) {
    const ours = MODES[mode];
    if (ours === undefined) notes.push(`permissions.defaultMode "${mode}" is not a mode agentry has`);
    else config.permissionMode = ours;
  }
  if (settings.model !== undefined) {
    const model = claudeModel(settings.model);
    if (typeof model === "string") config.model = model;
    else notes.push(model.ignored);
  }
  if (settings.env !== undefined) {
    const env = Object.fromEntries(
      Object.entries(settings.env).filter(([name]) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(name)),
    );
    if (Object.keys(env).length > 0) config.env = env;
  }
  return { label: file.label, path: file.path, scope: file.scope, config, notes };
}
