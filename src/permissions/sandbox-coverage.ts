import { ANY_PATH } from "./edit-reach.ts";
import { evaluate } from "./evaluate.ts";
import type { PermissionMode } from "./modes.ts";
import type { Ruleset, SandboxProfile } from "./types.ts";
import { wildcardMatch } from "./wildcard.ts";

/**
 * Whether a command confined to `profile` can do no more than the rules and mode already allow without
 * asking, so it need not ask (as Claude Code's sandbox auto-allow does). Read-only always qualifies.
 * Workspace-write qualifies when editing the workspace is allowed without a prompt and every edit rule
 * that denies or asks names a path the sandbox can keep read-only (`editRestrictedPaths`).
 */
export function sandboxCovers(rules: Ruleset, mode: PermissionMode, profile: SandboxProfile): boolean {
  if (profile === "read-only") return true;
  const edit = evaluate(rules, "edit", ANY_PATH);
  if (edit === "deny") return false;
  if (edit === "ask" && mode !== "accept-edits" && mode !== "bypass") return false;
  return restrictingEditRules(rules).every((pattern) => literalPathPrefix(pattern) !== undefined);
}

/**
 * Workspace-relative paths that edit rules deny or ask for (`secrets/**` → `secrets`), which a
 * workspace-write sandbox keeps read-only. Patterns without a literal folder or file (`*.lock`) give
 * nothing here; `sandboxCovers` is then false, so commands keep asking.
 */
export function editRestrictedPaths(rules: Ruleset): string[] {
  const paths = restrictingEditRules(rules)
    .map(literalPathPrefix)
    .filter((path) => path !== undefined);
  return [...new Set(paths)];
}

function restrictingEditRules(rules: Ruleset): string[] {
  return rules
    .filter(
      (rule) => rule.action !== "allow" && rule.pattern !== "*" && wildcardMatch(rule.permission, "edit"),
    )
    .map((rule) => rule.pattern);
}

/** `src/gen/**` → `src/gen`; `a.env` → `a.env`; `*.lock`, `**` → undefined. */
export function literalPathPrefix(pattern: string): string | undefined {
  const wild = pattern.search(/[*?]/);
  if (wild === -1) return trimSlashes(pattern) || undefined;
  const head = pattern.slice(0, wild);
  const folder = head.slice(0, head.lastIndexOf("/") + 1);
  return trimSlashes(folder) || undefined;
}

function trimSlashes(path: string): string {
  return path.replace(/^(\.\/)+/, "").replace(/^\/+|\/+$/g, "");
}
