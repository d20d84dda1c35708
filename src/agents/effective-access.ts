import { isToolHidden, toolPermission } from "../permissions/derive.ts";
import { evaluate } from "../permissions/evaluate.ts";
import type { Ruleset } from "../permissions/types.ts";
import { wildcardMatch } from "../permissions/wildcard.ts";
import type { AgentDefinition } from "./definition.ts";
import { definitionRules } from "./definition-rules.ts";

/** What an agent may use once its definition is applied, before the run's own rules and its parent's. */
export interface EffectiveAccess {
  /** Its rules deny edits of an ordinary workspace file: it cannot change the project. */
  readOnly: boolean;
  /** The tools it picks from its parent's, minus `deniedTools`; `inherited`: all of the parent's but those. */
  tools: string[] | "inherited";
  /** Built-in tools it can never use (its `disallowedTools`, and tools its rules deny outright), plus MCP patterns it disallows. */
  deniedTools: string[];
  /** The definition's own rules, as a child gets them (without the run's and the parent's). */
  rules: Ruleset;
}

/** The tools a user thinks in; `task_*` follow `task`. */
const TOOLS = ["read", "grep", "glob", "list", "bash", "write", "edit", "task"];

/** A path no agent file singles out, so a deny there is a deny of edits in general. */
const ORDINARY_PATH = "src/index.ts";

/**
 * The restrictions `agentry agents list|show` print, read from the same rules a child gets
 * (`definitionRules`). A definition whose permission cannot be read cannot start, so it shows as no tools.
 */
export function effectiveAccess(definition: AgentDefinition): EffectiveAccess {
  let rules: Ruleset;
  try {
    rules = definitionRules(definition);
  } catch {
    return { readOnly: true, tools: [], deniedTools: [...TOOLS], rules: [] };
  }
  const disallowed = definition.disallowedTools ?? [];
  const denied = (tool: string): boolean =>
    disallowed.some((pattern) => wildcardMatch(pattern, tool)) || isToolHidden(rules, toolPermission(tool));
  const deniedTools = [
    ...TOOLS.filter(denied),
    ...disallowed.filter((pattern) => !TOOLS.includes(pattern) && !pattern.startsWith("task_")),
  ];
  return {
    readOnly: isReadOnly(rules),
    tools: definition.tools === undefined ? "inherited" : definition.tools.filter((tool) => !denied(tool)),
    deniedTools: [...new Set(deniedTools)],
    rules,
  };
}

/**
 * Whether these rules keep an agent from changing files: they deny editing an ordinary workspace path.
 * Works on any ruleset — a definition's own, or a child's whole rules (run + definition + parent denies).
 */
export function isReadOnly(rules: Ruleset): boolean {
  return evaluate(rules, "edit", ORDINARY_PATH) === "deny";
}
