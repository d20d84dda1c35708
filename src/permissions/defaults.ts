import { READ_ONLY_BASH_RULES } from "./read-only-bash-rules.ts";
import type { PermissionRule, Ruleset } from "./types.ts";

const rule = (permission: string, pattern: string, action: PermissionRule["action"]): PermissionRule => ({
  permission,
  pattern,
  action,
});

/**
 * The rules of a run when config says nothing: reading (read, grep, glob, list all ask `read`) is free, edits and other commands are asked,
 * read-only commands run without a prompt, secrets in `.env` files are asked before they are read,
 * paths outside the workspace are asked, and spawning subagents is allowed. Config rules come after
 * these, so they win.
 */
export const DEFAULT_RULES: Ruleset = [
  rule("read", "*", "allow"),
  rule("read", "*.env", "ask"),
  rule("read", ".env.*", "ask"),
  rule("read", "*/.env.*", "ask"),
  rule("read", "*.env.example", "allow"),
  rule("edit", "*", "ask"),
  // The read-only allowlist, with its blanket deny softened to ask: a default run may still run
  // anything, after a prompt.
  ...READ_ONLY_BASH_RULES.map((bash) =>
    bash.action === "deny" ? { ...bash, action: "ask" as const } : bash,
  ),
  rule("external_directory", "*", "ask"),
  rule("task", "*", "allow"),
];
