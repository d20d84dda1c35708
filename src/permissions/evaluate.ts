import type { PermissionAction, PermissionRule, Ruleset } from "./types.ts";
import { wildcardMatch } from "./wildcard.ts";

/**
 * The rule that decides `permission` + `pattern`: the LAST rule whose permission and pattern both
 * match — unless the last matching `narrowOnly` rule is stricter than that (deny over ask over allow;
 * no match counts as ask), then that one.
 */
export function findMatchingRule(
  rules: Ruleset,
  permission: string,
  pattern: string,
): PermissionRule | undefined {
  let decided: PermissionRule | undefined;
  let narrowing: PermissionRule | undefined;
  for (
    let index = rules.length - 1;
    index >= 0 && (decided === undefined || narrowing === undefined);
    index--
  ) {
    const rule = rules[index] as PermissionRule;
    if (!wildcardMatch(rule.permission, permission) || !wildcardMatch(rule.pattern, pattern)) continue;
    if (rule.narrowOnly) narrowing ??= rule;
    else decided ??= rule;
  }
  if (narrowing === undefined) return decided;
  return STRICTNESS[narrowing.action] > STRICTNESS[decided?.action ?? "ask"] ? narrowing : decided;
}

const STRICTNESS: Record<PermissionAction, number> = { allow: 0, ask: 1, deny: 2 };

/** Last matching rule wins; no matching rule means "ask". */
export function evaluate(rules: Ruleset, permission: string, pattern: string): PermissionAction {
  return findMatchingRule(rules, permission, pattern)?.action ?? "ask";
}

export interface PatternDecision {
  pattern: string;
  action: PermissionAction;
  /** Absent when no rule matched (the action is then "ask"). */
  rule?: PermissionRule;
}

export interface RequestDecision {
  /** deny if any pattern is denied; allow only if every pattern is allowed; ask otherwise. */
  action: PermissionAction;
  /** One entry per pattern, in request order. */
  patterns: PatternDecision[];
}

/**
 * Evaluates a request with several patterns (e.g. every simple command of a compound bash command).
 * A request without patterns is evaluated as the single pattern `*`.
 */
export function evaluateRequest(
  rules: Ruleset,
  permission: string,
  patterns: readonly string[],
): RequestDecision {
  const decisions = (patterns.length === 0 ? ["*"] : patterns).map((pattern): PatternDecision => {
    const rule = findMatchingRule(rules, permission, pattern);
    return rule ? { pattern, action: rule.action, rule } : { pattern, action: "ask" };
  });
  const action: PermissionAction = decisions.some((d) => d.action === "deny")
    ? "deny"
    : decisions.every((d) => d.action === "allow")
      ? "allow"
      : "ask";
  return { action, patterns: decisions };
}

/** `bash:'rm *':deny`, the form rules take in messages. */
export function describeRule(rule: PermissionRule): string {
  return `${rule.permission}:'${rule.pattern}':${rule.action}`;
}
