import { AgentryError } from "../errors/agentry-error.ts";
import { READ_ONLY_BASH_RULES } from "../permissions/read-only-bash-rules.ts";
import { PermissionConfigError, rulesetFromConfig } from "../permissions/ruleset-from-config.ts";
import type { Ruleset } from "../permissions/types.ts";
import type { AgentDefinition } from "./definition.ts";

/** An agent asking for `permissionMode: plan` may not edit, and may run read-only commands only. */
const PLAN_MODE_RULES: Ruleset = [
  { permission: "edit", pattern: "*", action: "deny" },
  ...READ_ONLY_BASH_RULES,
];

/** A definition whose `permission` cannot be read: it cannot start (its file must be fixed). */
export class AgentPermissionError extends AgentryError {
  override readonly name = "AgentPermissionError";
  readonly kind = "user";
}

/**
 * The rules a definition itself asks for: read-only bash for read-only agents, its `permission`, and
 * for plan mode its restrictions followed by its own denies again, so plan mode's read-only allowlist
 * cannot lift a deny the file wrote. Throws `AgentPermissionError` when `permission` is unreadable.
 */
export function definitionRules(definition: AgentDefinition): Ruleset {
  let own: Ruleset;
  try {
    own = rulesetFromConfig(definition.permission, `agent "${definition.name}" permission`);
  } catch (error) {
    if (error instanceof PermissionConfigError) throw new AgentPermissionError(error.message);
    throw error;
  }
  return [
    ...(definition.readOnlyBash === true ? READ_ONLY_BASH_RULES : []),
    ...own,
    ...(definition.permissionMode === "plan"
      ? [...PLAN_MODE_RULES, ...own.filter((rule) => rule.action === "deny")]
      : []),
  ];
}
