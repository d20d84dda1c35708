import type { AgentDefinition } from "../agents/definition.ts";
import { deriveChildRules } from "../permissions/derive.ts";
import { READ_ONLY_BASH_RULES } from "../permissions/read-only-bash-rules.ts";
import { PermissionConfigError, rulesetFromConfig } from "../permissions/ruleset-from-config.ts";
import type { Ruleset } from "../permissions/types.ts";

/** An agent asking for `permissionMode: plan` may not edit, and may run read-only commands only. */
const PLAN_MODE_RULES: Ruleset = [
  { permission: "edit", pattern: "*", action: "deny" },
  ...READ_ONLY_BASH_RULES,
];

export class AgentPermissionError extends Error {
  override readonly name = "AgentPermissionError";
}

/**
 * A child's rules: the run's base rules (defaults and config, i.e. the root's), then its definition's
 * (read-only bash for read-only agents, its `permission`, plan-mode restrictions and then its own
 * denies again, so plan mode's read-only allowlist cannot lift a deny the file wrote), then every deny
 * of its parent — so a definition may settle what the config leaves to ask, but no deny anywhere above
 * it can be lifted. Allows of intermediate agents are not inherited.
 */
export function childRules(baseRules: Ruleset, parentRules: Ruleset, definition: AgentDefinition): Ruleset {
  let own: Ruleset;
  try {
    own = rulesetFromConfig(definition.permission, `agent "${definition.name}" permission`);
  } catch (error) {
    if (error instanceof PermissionConfigError) throw new AgentPermissionError(error.message);
    throw error;
  }
  const definitionRules = [
    ...(definition.readOnlyBash === true ? READ_ONLY_BASH_RULES : []),
    ...own,
    ...(definition.permissionMode === "plan"
      ? [...PLAN_MODE_RULES, ...own.filter((rule) => rule.action === "deny")]
      : []),
  ];
  return deriveChildRules(parentRules, [...baseRules, ...definitionRules]);
}
