import type { AgentSourceKind } from "../definition.ts";
import * as f from "./fields.ts";
import type { KeyHandler, LoadResult } from "./load-context.ts";
import { loadMarkdownAgent } from "./markdown-agent.ts";
import { isolation, restrictionHandlers } from "./policy-fields.ts";

/**
 * Claude Code's `.claude/agents/**\/*.md`: `name`, `description`, `tools` (comma string or list;
 * absent = inherit), `disallowedTools`, `model` (`sonnet|opus|haiku|inherit`, a full id, `provider/model`),
 * `color`, `permissionMode`, `mcpServers`, `maxTurns`, `background`, `isolation`, `skills`, `hooks`.
 */
const HANDLERS: Readonly<Record<string, KeyHandler>> = {
  ...restrictionHandlers("error"),
  name: () => {}, // read by resolveName
  description: f.description,
  model: f.modelHandler(),
  color: f.color,
  mcpServers: f.mcpServers,
  maxTurns: f.maxTurns,
  background: f.background,
  isolation,
  skills: f.skills,
  memory: f.unsupported("agentry has no persistent agent memory"),
  effort: f.unsupported("reasoning effort is set per model in config"),
  initialPrompt: f.unsupported("the parent's prompt is the child's first message"),
  hooks: f.hooks,
};

export function loadClaudeAgent(text: string, path: string, kind: AgentSourceKind = "project"): LoadResult {
  return loadMarkdownAgent(text, path, kind, {
    format: "claude",
    mode: "subagent",
    handlers: HANDLERS,
    name: { nameExpected: true },
  });
}
