import { describeRule } from "../../permissions/evaluate.ts";
import { rulesetFromConfig } from "../../permissions/ruleset-from-config.ts";
import type { PermissionRule, Ruleset } from "../../permissions/types.ts";
import { wildcardMatch } from "../../permissions/wildcard.ts";
import type { AgentPermissionConfig } from "../definition.ts";

/**
 * A limit another key implies: `tools: Bash(git diff:*)` limits bash to `git diff`, a read-only
 * sandbox limits bash to read-only commands and denies edits. `key` names it in messages.
 */
export interface PermissionLimit {
  key: string;
  rules: AgentPermissionConfig;
}

/**
 * The definition's rules once its limits apply. A limit is a ceiling, so the result is the narrower of
 * the file's own rules and every limit, for each permission:
 * - a limit that denies a permission outright (read-only: `edit`) denies it, whatever else says;
 * - a limit that allows some patterns (`bash`: `git diff *`) decides them — the file's `permission`
 *   may still deny some of them, but an allow or ask of its own for that permission would say
 *   something else, and two such limits on one permission cannot both hold: both are errors.
 * Layout: the file's rules, the limits, the file's denies again (so a limit's allow cannot lift them).
 * Without rules of its own, a single limit keeps its readable form. Returns the problem as a string.
 */
export function applyLimits(
  own: AgentPermissionConfig | undefined,
  limits: readonly PermissionLimit[],
): AgentPermissionConfig | string {
  if (own === undefined && limits.length === 1 && limits[0] !== undefined) return limits[0].rules;
  const ownRules = rulesetFromConfig(own);
  const byPermission = new Map<string, Array<{ key: string; rules: PermissionRule[] }>>();
  for (const limit of limits) {
    for (const rule of rulesetFromConfig(limit.rules)) {
      const layers = byPermission.get(rule.permission) ?? [];
      const layer = layers.find((l) => l.key === limit.key);
      if (layer === undefined) layers.push({ key: limit.key, rules: [rule] });
      else layer.rules.push(rule);
      byPermission.set(rule.permission, layers);
    }
  }
  const limited: Ruleset = [];
  for (const [permission, layers] of byPermission) {
    const denyAll = layers.find((l) => !l.rules.some((rule) => rule.action !== "deny"));
    if (denyAll !== undefined) {
      limited.push({ permission, pattern: "*", action: "deny" });
      continue;
    }
    const [first, second] = layers;
    if (first === undefined) continue;
    if (second !== undefined) {
      return `${first.key} and ${second.key} both limit ${permission} to some patterns, and agentry cannot combine the two; keep one`;
    }
    const overruled = ownRules.find(
      (rule) => rule.action !== "deny" && wildcardMatch(rule.permission, permission),
    );
    if (overruled !== undefined) {
      return `permission says ${describeRule(overruled)} while ${first.key} limits ${permission} to some patterns; say it in one place`;
    }
    limited.push(...first.rules);
  }
  return [...ownRules, ...limited, ...ownRules.filter((rule) => rule.action === "deny")];
}
