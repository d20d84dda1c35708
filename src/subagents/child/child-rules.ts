import type { AgentDefinition } from "../../agents/definition.ts";
import { definitionRules } from "../../agents/definition-rules.ts";
import { deriveChildRules } from "../../permissions/derive.ts";
import { confineProjectRules } from "../../permissions/project-rules.ts";
import type { Ruleset } from "../../permissions/types.ts";

/**
 * A child's rules: the run's base rules (defaults and config, i.e. the root's), then its definition's
 * (`definitionRules`), then every deny of its parent — so a definition may settle what the config
 * leaves to ask, but no deny anywhere above it can be lifted. Allows of intermediate agents are not
 * inherited. A project file's definition is the repository's word: its rules only narrow unless the
 * user trusts the folder, and never allow leaving the sandbox or the workspace (`confineProjectRules`).
 * Throws `AgentPermissionError` when the definition's `permission` is unreadable.
 */
export function childRules(baseRules: Ruleset, parentRules: Ruleset, definition: AgentDefinition): Ruleset {
  const own = definitionRules(definition);
  const rules =
    definition.source.kind === "project"
      ? confineProjectRules(own, baseRules, definition.source.trusted === true).rules
      : own;
  return deriveChildRules(parentRules, [...baseRules, ...rules]);
}
