import type { AgentSourceKind } from "../definition.ts";
import type { LoadResult } from "./load-context.ts";
import { loadOpenCodeLevel } from "./opencode-level.ts";

/**
 * One OpenCode agent file (`.opencode/agent(s)/**\/*.md`) on its own; discovery reads a level's files
 * and config together (`loadOpenCodeLevel`), as OpenCode merges them.
 */
export function loadOpenCodeAgent(text: string, path: string, kind: AgentSourceKind = "project"): LoadResult {
  const [agent] = loadOpenCodeLevel({ kind, configs: [], markdown: [{ path, text }] }).agents;
  return agent ?? { diagnostics: [] };
}
