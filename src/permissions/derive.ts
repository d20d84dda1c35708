import { evaluate } from "./evaluate.ts";
import type { Ruleset } from "./types.ts";
import { wildcardMatch } from "./wildcard.ts";

/**
 * A child's rules: its definition's rules followed by every deny rule of its parent. Later rules
 * win, so a deny anywhere up the tree holds at every depth (the parent's rules already carry the
 * grandparent's denies).
 */
export function deriveChildRules(parentRules: Ruleset, childDefinitionRules: Ruleset): Ruleset {
  return [...childDefinitionRules, ...parentRules.filter((rule) => rule.action === "deny")];
}

/**
 * True when no call of a tool with this permission could be allowed: a rule denies pattern `*` and
 * no later rule for this permission allows or asks anything. Such a tool is hidden from the model.
 */
export function isToolHidden(rules: Ruleset, permission: string): boolean {
  // Narrowing rules decide apart from the others (`findMatchingRule`): either side hiding it hides it.
  return (
    hiddenBy(
      rules.filter((rule) => !rule.narrowOnly),
      permission,
    ) ||
    hiddenBy(
      rules.filter((rule) => rule.narrowOnly),
      permission,
    )
  );
}

function hiddenBy(rules: Ruleset, permission: string): boolean {
  const lastBlanketDeny = rules.findLastIndex(
    (rule) => rule.action === "deny" && rule.pattern === "*" && wildcardMatch(rule.permission, permission),
  );
  if (lastBlanketDeny === -1) return false;
  return !rules
    .slice(lastBlanketDeny + 1)
    .some((rule) => rule.action !== "deny" && wildcardMatch(rule.permission, permission));
}

/**
 * The permission a built-in tool asks for: `grep`, `glob` and `list` ask `read`, `write` asks `edit`,
 * the `task_*` tools ask `task`, others (bash, MCP tools …) their own name.
 */
export function toolPermission(toolName: string): string {
  if (toolName === "grep" || toolName === "glob" || toolName === "list") return "read";
  if (toolName === "write") return "edit";
  if (toolName.startsWith("task_")) return "task";
  return toolName;
}

/** The tools whose rules leave some call open; `permissionOf` maps a tool name to its permission. */
export function visibleTools<T extends { readonly name: string }>(
  tools: readonly T[],
  rules: Ruleset,
  permissionOf: (toolName: string) => string = toolPermission,
): T[] {
  return tools.filter((tool) => !isToolHidden(rules, permissionOf(tool.name)));
}

/** Whether `task` may be used to spawn `agentName` (allowed or asked; only a deny refuses). */
export function canSpawn(rules: Ruleset, agentName: string): boolean {
  return evaluate(rules, "task", agentName) !== "deny";
}

/** The agent names the `task` tool may offer, in their original order. */
export function filterSpawnable(rules: Ruleset, names: readonly string[]): string[] {
  return names.filter((name) => canSpawn(rules, name));
}
