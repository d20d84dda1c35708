import type { AgentSourceKind } from "../definition.ts";
import type { Diagnostic } from "../diagnostics.ts";
import type { LoadResult } from "./load-context.ts";
import { loadOpenCodeLevel } from "./opencode-level.ts";

/** The agents of one config file (opencode.json, .codex/config.toml) and the problems of the file itself. */
export interface ConfigAgents {
  agents: LoadResult[];
  diagnostics: Diagnostic[];
}

/**
 * The `agent` entries of one opencode.json(c) on its own: `{ "agent": { "review": { "description": …,
 * "prompt": "{file:./prompts/review.md}", "tools": {…}, "permission": {…} } } }`, read with the keys of
 * an OpenCode agent file, the file's own `permission` and `tools` under each. Discovery reads a level's
 * config files and agent folders together (`loadOpenCodeLevel`). `homeDir` resolves `{file:~/…}`.
 */
export function loadOpenCodeConfig(
  text: string,
  path: string,
  kind: AgentSourceKind = "project",
  homeDir?: string,
): ConfigAgents {
  return loadOpenCodeLevel({
    kind,
    configs: [{ path, text }],
    markdown: [],
    ...(homeDir === undefined ? {} : { homeDir }),
  });
}
