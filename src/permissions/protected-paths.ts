import { posix } from "node:path";

/**
 * Workspace paths whose contents run code or widen powers later, outside any sandbox: git's config
 * and hooks (an fsmonitor or hook runs on the next `git status`), agentry's own config and state, the
 * agent definitions and settings of agentry and the other harnesses, MCP server lists, editor tasks,
 * shell start-up files, direnv's `.envrc`. A model never writes them without a person saying yes
 * (every permission mode but `bypass`), through file tools and commands alike.
 *
 * Paths are workspace-relative; a directory protects everything under it.
 */
export const PROTECTED_PATHS: readonly string[] = [
  ".git",
  ".gitmodules",
  ".agentry",
  "agentry.json",
  ".claude",
  ".opencode",
  "opencode.json",
  "opencode.jsonc",
  ".codex",
  ".mcp.json",
  "subagents",
  ".vscode",
  ".idea",
  ".husky",
  ".envrc",
  ".bashrc",
  ".bash_profile",
  ".profile",
  ".zshrc",
  ".zprofile",
  ".gitconfig",
];

/** Inside `.agentry/` the plans folder is product output: the `plan` agent writes its plans there. */
const UNPROTECTED_INSIDE: readonly string[] = [".agentry/plans"];

/** True when `relative` (a workspace-relative path, `/`-separated) is or lies under a protected path. */
export function isProtectedPath(relative: string): boolean {
  const path = normalize(relative);
  if (UNPROTECTED_INSIDE.some((free) => isAtOrUnder(path, free))) return false;
  return PROTECTED_PATHS.some((root) => isAtOrUnder(path, root));
}

function isAtOrUnder(path: string, root: string): boolean {
  return path === root || path.startsWith(`${root}/`);
}

/**
 * What a path names decides, not how it is spelled: `./x`, `a\x`, `a//x` and `a/../x` alike, so that
 * `.agentry/plans/../config.json` is agentry's config and not a plan. (A trailing slash may stay:
 * `x/` lies under `x`.)
 */
function normalize(relative: string): string {
  return posix.normalize(relative.replace(/\\/g, "/"));
}
