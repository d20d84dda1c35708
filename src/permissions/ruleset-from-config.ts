import { z } from "zod";
import { AgentryError } from "../errors/agentry-error.ts";
import { claudeRule } from "./claude-rule.ts";
import type { PermissionAction, PermissionRule, Ruleset } from "./types.ts";

/** A `permission` value in config that cannot be read; the message names every bad key. */
export class PermissionConfigError extends AgentryError {
  override readonly name = "PermissionConfigError";
  readonly kind = "user";
  readonly issues: string[];
  constructor(issues: string[]) {
    super(`invalid permission rules:\n${issues.map((issue) => `  ${issue}`).join("\n")}`);
    this.issues = issues;
  }
}

const ACTIONS = ["allow", "ask", "deny"] as const;
const ACTION_MESSAGE = 'must be "allow", "ask" or "deny"';
const action = z.enum(ACTIONS, { error: ACTION_MESSAGE });
const text = (what: string) =>
  z.string({ error: `must be a string (${what})` }).min(1, { error: `must not be empty (${what})` });

const listForm = z.array(
  z.strictObject(
    {
      permission: text("e.g. bash, edit, read, task"),
      pattern: text("e.g. *, git status *, src/**"),
      action,
    },
    { error: "must be a rule object {permission, pattern, action}" },
  ),
);
const claudeForm = z.strictObject({
  allow: z.array(z.string({ error: 'must be a string like "Bash(git diff:*)"' })).optional(),
  ask: z.array(z.string({ error: 'must be a string like "Bash(git diff:*)"' })).optional(),
  deny: z.array(z.string({ error: 'must be a string like "Bash(git diff:*)"' })).optional(),
});
const patternMap = z.record(z.string(), action);

/** Permissions whose patterns are workspace-relative paths: `./src/**` means `src/**`. */
const PATH_PERMISSIONS = new Set(["read", "edit", "grep", "glob", "list"]);

/**
 * Reads permission rules from config, in any of three forms:
 * - ours: `[{ "permission": "bash", "pattern": "git *", "action": "allow" }, …]`, in order;
 * - OpenCode's: `{ "edit": "deny", "bash": { "*": "ask", "git status": "allow" } }`, in key order;
 * - Claude Code's: `{ "allow": ["Bash(git diff:*)", "Read(src/**)"], "deny": ["Edit"] }`, applied as
 *   allow, then ask, then deny, so a deny always wins as it does in Claude Code.
 * A bare action (`"ask"`) applies to everything. `where` names the value in error messages.
 * Throws `PermissionConfigError` naming each bad key.
 */
export function rulesetFromConfig(value: unknown, where = "permission"): Ruleset {
  if (value === undefined || value === null) return [];
  if (typeof value === "string") {
    const parsed = action.safeParse(value, { reportInput: true });
    if (!parsed.success)
      throw new PermissionConfigError([
        `${where}: ${ACTION_MESSAGE} or a map of rules (got ${JSON.stringify(value)})`,
      ]);
    return [{ permission: "*", pattern: "*", action: parsed.data }];
  }
  if (Array.isArray(value)) {
    const parsed = listForm.safeParse(value, { reportInput: true });
    if (!parsed.success) throw new PermissionConfigError(describeIssues(where, parsed.error.issues));
    return parsed.data.map((rule) => normalized(rule.permission, rule.pattern, rule.action));
  }
  if (typeof value !== "object") {
    throw new PermissionConfigError([
      `${where}: must be a list of rules, a map of permission to action, or {allow, ask, deny} lists (got ${JSON.stringify(value)})`,
    ]);
  }
  const entries = Object.entries(value);
  const claudeStyle = entries.some(
    ([key, item]) => ACTIONS.includes(key as PermissionAction) && Array.isArray(item),
  );
  return claudeStyle ? fromClaude(value, where) : fromOpenCode(entries, where);
}

function fromOpenCode(entries: [string, unknown][], where: string): Ruleset {
  const rules: Ruleset = [];
  const issues: string[] = [];
  for (const [permission, item] of entries) {
    const at = keyPath(where, [permission]);
    if (permission === "") issues.push(`${at}: permission name must not be empty`);
    else if (typeof item === "string") {
      const parsed = action.safeParse(item, { reportInput: true });
      if (parsed.success) rules.push(normalized(permission, "*", parsed.data));
      else issues.push(`${at}: ${ACTION_MESSAGE} or a map of pattern to action (got ${preview(item)})`);
    } else if (typeof item === "object" && item !== null && !Array.isArray(item)) {
      const parsed = patternMap.safeParse(item, { reportInput: true });
      if (parsed.success) {
        for (const [pattern, act] of Object.entries(parsed.data))
          rules.push(normalized(permission, pattern, act));
      } else issues.push(...describeIssues(at, parsed.error.issues));
    } else {
      issues.push(`${at}: ${ACTION_MESSAGE} or a map of pattern to action (got ${preview(item)})`);
    }
  }
  if (issues.length > 0) throw new PermissionConfigError(issues);
  return rules;
}

function fromClaude(value: object, where: string): Ruleset {
  const parsed = claudeForm.safeParse(value, { reportInput: true });
  if (!parsed.success) throw new PermissionConfigError(describeIssues(where, parsed.error.issues));
  const rules: Ruleset = [];
  const issues: string[] = [];
  for (const act of ACTIONS) {
    (parsed.data[act] ?? []).forEach((entry, index) => {
      const result = claudeRule(entry);
      if (typeof result === "string") issues.push(`${keyPath(where, [act, index])}: ${result}`);
      else for (const pattern of result.patterns) rules.push(normalized(result.permission, pattern, act));
    });
  }
  if (issues.length > 0) throw new PermissionConfigError(issues);
  return rules;
}

function normalized(permission: string, pattern: string, act: PermissionAction): PermissionRule {
  const path = PATH_PERMISSIONS.has(permission) && pattern.startsWith("./") ? pattern.slice(2) : pattern;
  return { permission, pattern: path === "" ? "*" : path, action: act };
}

function describeIssues(where: string, issues: readonly z.core.$ZodIssue[]): string[] {
  return issues.map((issue) => {
    if (issue.code === "unrecognized_keys") {
      const expected = issue.path.length === 0 ? "allow, ask, deny" : "permission, pattern, action";
      return issue.keys
        .map((key) => `${keyPath(where, [...issue.path, key])}: unknown key (expected ${expected})`)
        .join("; ");
    }
    const at = keyPath(where, issue.path);
    if (issue.code === "invalid_type" && issue.input === undefined) return `${at}: is required`;
    const got = "input" in issue && issue.input !== undefined ? ` (got ${preview(issue.input)})` : "";
    return `${at}: ${issue.message}${got}`;
  });
}

/** `permission.bash["git status"]`, `permission[2].action`. */
function keyPath(where: string, path: readonly PropertyKey[]): string {
  return path.reduce<string>((out, part) => {
    if (typeof part === "number") return `${out}[${part}]`;
    const name = String(part);
    return /^[A-Za-z_][\w-]*$/.test(name) ? `${out}.${name}` : `${out}[${JSON.stringify(name)}]`;
  }, where);
}

function preview(value: unknown): string {
  const shown = JSON.stringify(value) ?? String(value);
  return shown.length > 60 ? `${shown.slice(0, 57)}...` : shown;
}
