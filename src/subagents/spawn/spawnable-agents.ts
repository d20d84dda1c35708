import type { AgentRegistry } from "../../agents/agent-registry.ts";
import type { AgentDefinition } from "../../agents/definition.ts";
import { filterSpawnable } from "../../permissions/derive.ts";
import type { Ruleset } from "../../permissions/types.ts";

/** What `task` starts when the call names no `subagent_type`. */
export const DEFAULT_SUBAGENT_TYPE = "general-purpose";

/**
 * The agents `rules` allow spawning through `task`: subagents (local, and remote ones with a `url`),
 * not hidden, able to run (not `unavailable`), sorted by name.
 */
export function spawnableAgents(registry: AgentRegistry, rules: Ruleset): AgentDefinition[] {
  const candidates = registry
    .list({ mode: "subagent" })
    .filter((definition) => definition.hidden !== true && definition.unavailable === undefined);
  const allowed = new Set(
    filterSpawnable(
      rules,
      candidates.map((definition) => definition.name),
    ),
  );
  return candidates.filter((definition) => allowed.has(definition.name));
}
