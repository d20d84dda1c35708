import type { AgentDefinition } from "../../agents/definition.ts";
import { visibleTools } from "../../permissions/derive.ts";
import type { Ruleset } from "../../permissions/types.ts";
import { wildcardMatch } from "../../permissions/wildcard.ts";
import type { AnyTool } from "../../tools/tool.ts";

/** Tools that start or steer subagents; a child only gets them below the depth limit. */
export function isSpawnTool(name: string): boolean {
  return name === "task" || name.startsWith("task_");
}

export interface ChildToolsOptions {
  definition: AgentDefinition;
  /** The caller's tools: what a definition without `tools` inherits. */
  parentTools: readonly AnyTool[];
  /** What a definition's `tools` list picks from. */
  baseTools: readonly AnyTool[];
  /** The child's permission rules: tools they deny with `*` are hidden. */
  rules: Ruleset;
  /** Whether the child is below the depth limit. */
  mayNest: boolean;
}

export interface ChildToolSet {
  /** The child's tools, spawn tools excluded. */
  tools: AnyTool[];
  /** Whether to add the child's own `task` tool. */
  spawn: boolean;
}

/**
 * A child's tools: its definition's `tools` picked from the base tools (absent = its parent's tools;
 * `[]` = none; `*` patterns such as `mcp__github__*` match several, and each server named in its
 * `mcpServers` adds that server's tools), minus `disallowedTools`, minus tools its rules hide. The parent's own spawn tools are
 * never inherited as they are (they are bound to the parent); `spawn` says whether the child gets
 * its own.
 */
export function childTools(options: ChildToolsOptions): ChildToolSet {
  const { definition, rules } = options;
  const listed = definition.tools;
  const disallowed = definition.disallowedTools ?? [];
  const allowed = (name: string) => !disallowed.some((pattern) => wildcardMatch(pattern, name));

  let picked: AnyTool[];
  if (listed === undefined) {
    picked = options.parentTools.filter((tool) => !isSpawnTool(tool.name));
  } else {
    const wanted = [...listed, ...(definition.mcpServers ?? []).map((server) => `mcp__${server.name}__*`)];
    const pool = unique([...options.baseTools, ...options.parentTools]);
    picked = pool.filter(
      (tool) => !isSpawnTool(tool.name) && wanted.some((pattern) => wildcardMatch(pattern, tool.name)),
    );
  }
  const tools = visibleTools(
    picked.filter((tool) => allowed(tool.name)),
    rules,
  );
  const wantsSpawn = listed === undefined || listed.includes("task");
  const spawn =
    options.mayNest && wantsSpawn && allowed("task") && visibleTools([{ name: "task" }], rules).length > 0;
  return { tools, spawn };
}

function unique(tools: AnyTool[]): AnyTool[] {
  const seen = new Set<string>();
  return tools.filter((tool) => {
    if (seen.has(tool.name)) return false;
    seen.add(tool.name);
    return true;
  });
}
