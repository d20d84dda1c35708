import type { PermissionMode } from "./modes.ts";
import type { Ruleset, SandboxProfile } from "./types.ts";
import { wildcardMatch } from "./wildcard.ts";

/**
 * A path that only a pattern of wildcards (`*`) matches: the probe for "a file of the workspace no rule
 * names", with which the sandbox's ceiling and `sandboxCovers` read the edit rules.
 */
export const ANY_PATH = "\u0000any-path";

/** Where rules let the `edit` and `write` tools write. */
export type EditReach =
  /** Every edit is denied: the agent cannot change a file with its tools. */
  | { kind: "none" }
  /** Edits are denied but for these patterns, which later rules allow or ask for (`docs/**`). */
  | { kind: "only"; patterns: string[] }
  /** Editing a file no rule names is allowed or asked: any file but those the rules keep back. */
  | { kind: "workspace" };

/**
 * Where an agent may edit, read from its rules as the gate reads them (`findMatchingRule`): a path is
 * open only where neither the ordinary rules nor the narrowing ones deny it. The last rule of a side
 * for every path is found with `ANY_PATH`; when it denies, only the patterns of the allow and ask rules
 * after it on that side are open. A later deny, or the other side, may still close part of those, so
 * `only` can name more than the gate would allow, never less: a label built on it never calls an agent
 * that can write read-only.
 */
export function editReach(rules: Ruleset): EditReach {
  // Where both sides deny it, the user's own (ordinary) rules name what they open.
  const open =
    openAfterCatchAllDeny(rules.filter((rule) => !rule.narrowOnly)) ??
    openAfterCatchAllDeny(rules.filter((rule) => rule.narrowOnly));
  if (open === undefined) return { kind: "workspace" };
  return open.length === 0 ? { kind: "none" } : { kind: "only", patterns: [...new Set(open)] };
}

/** The edit patterns these rules open after their last rule for every path, when it denies; else undefined. */
function openAfterCatchAllDeny(rules: Ruleset): string[] | undefined {
  const isEdit = (permission: string) => wildcardMatch(permission, "edit");
  const last = rules.findLastIndex(
    (rule) => isEdit(rule.permission) && wildcardMatch(rule.pattern, ANY_PATH),
  );
  if (rules[last]?.action !== "deny") return undefined;
  return rules
    .slice(last + 1)
    .filter((rule) => rule.action !== "deny" && isEdit(rule.permission))
    .map((rule) => rule.pattern);
}

/**
 * The widest OS sandbox an agent's commands get from its own rules and mode: `read-only` in plan mode
 * or where the rules deny editing a file no rule names (an agent that edits `docs/**` only included),
 * `workspace-write` otherwise. `src/sandbox/policy-for-agent.ts` decides the same way, and a child's
 * sandbox is never wider than its parent's.
 */
export function sandboxCeiling(rules: Ruleset, mode: PermissionMode = "default"): SandboxProfile {
  return mode === "plan" || editReach(rules).kind !== "workspace" ? "read-only" : "workspace-write";
}
