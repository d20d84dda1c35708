import { READ_ONLY_BASH_RULES } from "../../permissions/bash-command.ts";
import { PermissionConfigError, rulesetFromConfig } from "../../permissions/ruleset-from-config.ts";
import type { Ruleset } from "../../permissions/types.ts";
import {
  AgentPermissionConfigSchema,
  type AgentPermissionMode,
  WORKSPACE_MODES,
  type WorkspaceMode,
} from "../definition.ts";
import type { Draft, KeyHandler } from "./load-context.ts";
import { isRestrictive, type RestrictionKey, readBoolean } from "./restriction-keys.ts";
import {
  applyDisallowedTools,
  type FalseOnlyMaps,
  isPlainObject,
  mergePermission,
  toolsHandler,
} from "./tool-list.ts";
import { limitToolsNamedInRules } from "./tool-permissions.ts";

/**
 * Keys that restrict what an agent may do. Ignoring a bad one would silently grant more than the author
 * meant, so a value we cannot read fails the whole file instead of being dropped.
 */

export const permission: KeyHandler = (value, draft, ctx, key) => {
  let rules: Ruleset;
  try {
    rules = rulesetFromConfig(value, key);
  } catch (error) {
    if (!(error instanceof PermissionConfigError)) throw error;
    return ctx.fail(error.issues.join("; "), key);
  }
  const parsed = AgentPermissionConfigSchema.safeParse(value);
  if (!parsed.success) return ctx.fail(`${key} is not a rule list, an action or a permission map`, key);
  if (!limitToolsNamedInRules(rules, draft, ctx, key)) return;
  // Rules that `tools` derived (e.g. from `Bash(git *)`) stay first; the file's own rules win.
  draft.permission =
    draft.permission === undefined ? parsed.data : mergePermission(draft.permission, parsed.data);
};

/** Claude Code's names and ours. `dontAsk` has no equivalent; `default` is the closest without widening. */
const PERMISSION_MODES: Readonly<Record<string, AgentPermissionMode>> = {
  default: "default",
  dontask: "default",
  acceptedits: "accept-edits",
  "accept-edits": "accept-edits",
  bypasspermissions: "bypass",
  bypass: "bypass",
  plan: "plan",
};

export const permissionMode: KeyHandler = (value, draft, ctx, key) => {
  const mode = typeof value === "string" ? PERMISSION_MODES[value.trim().toLowerCase()] : undefined;
  if (mode === undefined) {
    return ctx.fail(`${key} must be one of default, acceptEdits, dontAsk, bypassPermissions, plan`, key);
  }
  if (typeof value === "string" && value.trim().toLowerCase() === "dontask") {
    ctx.report(
      "info",
      `${key} dontAsk has no equivalent in agentry`,
      "used default (asks go to the root)",
      key,
    );
  }
  if (mode === "bypass") {
    ctx.report(
      "info",
      `${key} ${value} asks to skip permission checks`,
      "kept it; a child never gets more than its parent",
      key,
    );
  }
  // Plan mode is read-only: a limit like a read-only sandbox, so it combines with the file's other
  // limits here rather than being stacked on top of them when the child starts.
  if (mode === "plan") restrictToReadOnly(draft, key);
  else draft.permissionMode = mode;
};

/** `workspace: isolated` or `workspace: { mode, path }` (AgentScope harness). A path alone means isolated. */
export const workspace: KeyHandler = (value, draft, ctx, key) => {
  const spec = typeof value === "string" ? { mode: value } : value;
  if (!isPlainObject(spec)) return ctx.fail(`${key} must be a mode or { mode, path }`, key);
  const mode = spec.mode ?? (spec.path === undefined ? undefined : "isolated");
  if (typeof mode !== "string" || !(WORKSPACE_MODES as readonly string[]).includes(mode)) {
    return ctx.fail(`${key}.mode must be one of ${WORKSPACE_MODES.join(", ")}`, key);
  }
  if (spec.path !== undefined && (typeof spec.path !== "string" || spec.path.trim() === "")) {
    return ctx.fail(`${key}.path must be a folder path`, key);
  }
  const extra = Object.keys(spec).filter((k) => k !== "mode" && k !== "path");
  // `workspace: { mode: isolated, readOnly: true }`: a limit put in the wrong place is still a limit.
  const limit = extra.find(isRestrictive);
  if (limit !== undefined) {
    return ctx.fail(
      `${key}.${limit} looks like it limits the agent, but a workspace holds only mode and path; ignoring it could give the agent more than the file allows (make it a key of its own, or remove it)`,
      key,
    );
  }
  if (extra.length > 0) {
    const names = extra.map((k) => `${key}.${k}`).join(", ");
    ctx.report("warning", `${names}: unknown key`, `ignored ${names}`, key);
  }
  draft.workspace =
    typeof spec.path === "string"
      ? { mode: mode as WorkspaceMode, path: spec.path.trim() }
      : { mode: mode as WorkspaceMode };
};

/** Claude Code's `isolation: worktree`. */
export const isolation: KeyHandler = (value, draft, ctx, key) => {
  if (value !== "worktree") return ctx.fail(`${key} must be "worktree"`, key);
  draft.workspace = { mode: "worktree" };
};

export const fork: KeyHandler = (value, draft, ctx, key) => {
  if (value === "none" || value === "all") draft.fork = value;
  else if (typeof value === "number" && Number.isInteger(value) && value > 0) draft.fork = value;
  else if (value === false) draft.fork = "none";
  else ctx.ignore(key, 'must be "none", "all" or a number of turns');
};

/**
 * No file edits and bash under read-only rules (Codex's `sandbox_mode = "read-only"`, `readOnly: true`).
 * A limit, so it comes after the file's own `permission`: `permission: { edit: allow }` cannot lift it.
 */
export function restrictToReadOnly(draft: Draft, key: string): void {
  draft.disallowedTools = [...new Set([...(draft.disallowedTools ?? []), "write", "edit"])];
  const readOnly = [...READ_ONLY_BASH_RULES, { permission: "edit", pattern: "*", action: "deny" as const }];
  draft.limits = [...(draft.limits ?? []), { key, rules: readOnly }];
}

/** Codex's sandbox modes. Only `read-only` limits anything; the others leave agentry's rules in charge. */
export const sandboxMode: KeyHandler = (value, draft, ctx, key) => {
  if (value === "read-only") restrictToReadOnly(draft, key);
  else if (value === "workspace-write" || value === "danger-full-access") {
    ctx.report(
      "info",
      `${key} ${value} is not a limit in agentry`,
      "the agent's commands and edits follow its permission rules",
      key,
    );
  } else ctx.fail(`${key} must be read-only, workspace-write or danger-full-access`, key);
};

/** `readOnly: true` is the same as Codex's read-only sandbox. */
export const readOnly: KeyHandler = (value, draft, ctx, key) => {
  const flag = readBoolean(value);
  if (flag === undefined) return ctx.fail(`${key} must be true or false`, key);
  if (flag) restrictToReadOnly(draft, key);
};

export const readOnlyBash: KeyHandler = (value, draft, ctx, key) => {
  const flag = readBoolean(value);
  if (flag === undefined) return ctx.fail(`${key} must be true or false`, key);
  draft.readOnlyBash = flag;
};

/** OpenCode's `disable: true` (also `"true"`): the file is not an agent. A value we cannot read fails. */
export const disable: KeyHandler = (value, _draft, ctx, key) => {
  const flag = readBoolean(value);
  if (flag === undefined) return ctx.fail(`${key} must be true or false`, key);
  if (flag) ctx.disable(`the agent is disabled (${key}: true)`, key);
};

/**
 * Every format reads every restriction, whichever harness it comes from: a Claude file with OpenCode's
 * `permission` map is limited by it, not given full powers because the key is foreign to its format.
 */
export function restrictionHandlers(falseOnlyMaps: FalseOnlyMaps): Record<RestrictionKey, KeyHandler> {
  return {
    tools: toolsHandler(falseOnlyMaps),
    disallowedTools: applyDisallowedTools,
    permission,
    permissionMode,
    sandbox_mode: sandboxMode,
    readOnly,
    readOnlyBash,
    disable,
    workspace,
    allowedHosts,
  };
}

const HOST = /^(\*\.)?[A-Za-z0-9.-]+$|^\[?[0-9A-Fa-f:.]+\]?$/;

/**
 * The hosts this agent's commands may reach: a narrowing of what the user's config allows (an agent
 * file never widens the network); `[]` means none.
 */
export const allowedHosts: KeyHandler = (value, draft, ctx, key) => {
  const hosts = typeof value === "string" ? [value] : value;
  if (!Array.isArray(hosts) || !hosts.every((host) => typeof host === "string" && HOST.test(host.trim()))) {
    return ctx.fail(`${key} must be a list of host names such as registry.npmjs.org or *.github.com`, key);
  }
  draft.allowedHosts = hosts.map((host: string) => host.trim());
};
