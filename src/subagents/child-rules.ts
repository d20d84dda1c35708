import type { AgentDefinition } from "../agents/definition.ts";
import { definitionRules } from "../agents/definition-rules.ts";
import { deriveChildRules } from "../permissions/derive.ts";
import type { Ruleset } from "../permissions/types.ts";

/**
 * A child's rules: the run's base rules (defaults and config, i.e. the root's), then its definition's
 * (`definitionRules`), then every deny of its parent — so a definition may settle what the config
 * leaves to ask, but no deny anywhere above it can be lifted. Allows of intermediate agents are not
 * inherited. Throws `AgentPermissionError` when the definition's `permission` is unreadable.
 */
export function childRules(baseRules: Ruleset, parentRules: Ruleset, definition: AgentDefinition): Ruleset {
  return deriveChildRules(parentRules, [...baseRules, ...definitionRules(definition)]);
}
