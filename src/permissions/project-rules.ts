import type { PermissionRule, Ruleset } from "./types.ts";
import { wildcardMatch } from "./wildcard.ts";

/**
 * Permissions a repository's rules never allow, trusted or not: leaving the OS sandbox and reaching
 * outside the workspace are the user's to allow (the sandbox's own promise, docs/security.md).
 */
export const NEVER_ALLOWED_BY_PROJECT = ["unsandboxed", "external_directory"] as const;

export interface ConfinedRules {
  /** The rules as they apply, to be placed where the project's rules go. */
  rules: Ruleset;
  /** The project's allows that do not widen anything: all of them untrusted; trusted, those of `NEVER_ALLOWED_BY_PROJECT`. */
  withheld: PermissionRule[];
}

/**
 * A repository's rules (its config, its agent files) as they may apply over `base` (the rules before
 * them: the defaults and the user's). In a folder the user has not trusted every rule only narrows
 * (`narrowOnly`): the project's own list still decides among its rules, but its verdict counts only
 * where it is stricter than `base`'s. In a trusted folder the rules apply as written, followed by
 * `base`'s rules for `NEVER_ALLOWED_BY_PROJECT` again, so none of their allows reaches those (their
 * asks and denies of those still narrow).
 */
export function confineProjectRules(rules: Ruleset, base: Ruleset, trusted: boolean): ConfinedRules {
  if (!trusted) {
    return {
      rules: rules.map((rule) => ({ ...rule, narrowOnly: true })),
      withheld: rules.filter((rule) => rule.action === "allow"),
    };
  }
  const never = NEVER_ALLOWED_BY_PROJECT.flatMap((permission) =>
    rules
      .filter((rule) => wildcardMatch(rule.permission, permission))
      .map((rule) => ({ ...rule, permission })),
  );
  return {
    // The project's own verdicts on those permissions still narrow.
    rules: [
      ...rules,
      ...reassertNeverAllowed(base),
      ...never.map((rule) => ({ ...rule, narrowOnly: true as const })),
    ],
    withheld: never.filter((rule) => rule.action === "allow"),
  };
}

/**
 * `base`'s verdicts on `NEVER_ALLOWED_BY_PROJECT`, as rules naming each permission exactly: placed after
 * a trusted project's rules, they give those permissions back to the rules before the project.
 */
export function reassertNeverAllowed(base: Ruleset): Ruleset {
  return NEVER_ALLOWED_BY_PROJECT.flatMap(
    (permission): Ruleset => [
      { permission, pattern: "*", action: "ask" },
      ...base
        .filter((rule) => wildcardMatch(rule.permission, permission))
        .map((rule) => ({ ...rule, permission })),
    ],
  );
}
