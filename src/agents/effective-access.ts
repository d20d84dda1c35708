import { isToolHidden, toolPermission } from "../permissions/derive.ts";
import { type EditReach, editReach, sandboxCeiling } from "../permissions/edit-reach.ts";
import type { Ruleset, SandboxProfile } from "../permissions/types.ts";
import { wildcardMatch } from "../permissions/wildcard.ts";
import type { AgentDefinition } from "./definition.ts";
import { definitionRules } from "./definition-rules.ts";

/** What an agent may use once its definition is applied, before the run's own rules and its parent's. */
export interface EffectiveAccess {
  /** Its rules deny every edit (`edits` is `none`): it cannot change a file with its tools. */
  readOnly: boolean;
  /** Where its rules let `edit` and `write` write: nowhere, only some paths (`docs/**`), or the workspace. */
  edits: EditReach;
  /**
   * The OS sandbox of its commands by its own rules, as `policyForChild` derives it (a read-only parent
   * or `--permission-mode plan` narrows it further). An agent that edits some paths only gets a
   * read-only one: its edits go through its tools, where the gate checks each path.
   */
  sandbox: SandboxProfile;
  /** The tools it picks from its parent's, minus `deniedTools`; `inherited`: all of the parent's but those. */
  tools: string[] | "inherited";
  /** Built-in tools it can never use (its `disallowedTools`, and tools its rules deny outright), plus MCP patterns it disallows. */
  deniedTools: string[];
  /** The definition's own rules, as a child gets them (without the run's and the parent's). */
  rules: Ruleset;
}

/** The tools a user thinks in; `task_*` follow `task`. */
const TOOLS = ["read", "grep", "glob", "list", "bash", "write", "edit", "task"];

/**
 * The restrictions `agentry agents list|show` print, read from the same rules a child gets
 * (`definitionRules`). A definition whose permission cannot be read cannot start, so it shows as no tools.
 */
export function effectiveAccess(definition: AgentDefinition): EffectiveAccess {
  let rules: Ruleset;
  try {
    rules = definitionRules(definition);
  } catch {
    return {
      readOnly: true,
      edits: { kind: "none" },
      sandbox: "read-only",
      tools: [],
      deniedTools: [...TOOLS],
      rules: [],
    };
  }
  const disallowed = definition.disallowedTools ?? [];
  const denied = (tool: string): boolean =>
    disallowed.some((pattern) => wildcardMatch(pattern, tool)) || isToolHidden(rules, toolPermission(tool));
  const deniedTools = [
    ...TOOLS.filter(denied),
    ...disallowed.filter((pattern) => !TOOLS.includes(pattern) && !pattern.startsWith("task_")),
  ];
  const edits = editReach(rules);
  return {
    readOnly: edits.kind === "none",
    edits,
    sandbox: sandboxCeiling(rules),
    tools: definition.tools === undefined ? "inherited" : definition.tools.filter((tool) => !denied(tool)),
    deniedTools: [...new Set(deniedTools)],
    rules,
  };
}
