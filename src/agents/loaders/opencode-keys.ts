import * as f from "./fields.ts";
import type { KeyHandler } from "./load-context.ts";
import { withAgentryMcpNames } from "./opencode-mcp-names.ts";
import { permission, restrictionHandlers } from "./policy-fields.ts";

/** OpenCode's `permission` map, whose `github_*` also denies (asks, allows) agentry's `mcp__github__…`. */
const openCodePermission: KeyHandler = (value, draft, ctx, key) => {
  const { value: rules, mirrored } = withAgentryMcpNames(value);
  for (const [name, agentryName] of mirrored) {
    const message = `${key} ${name} is OpenCode's name for MCP tools`;
    ctx.report("info", message, `applied it to ${agentryName} too (agentry's name for them)`, key);
  }
  permission(rules, draft, ctx, key);
};

/**
 * OpenCode's `.opencode/agent(s)/**\/*.md`. The file stem is the agent's name. Keys: `description`,
 * `mode` (default `all`), `model` (`provider/model`), `temperature`, `tools` (boolean map),
 * `permission` (map), `hidden`, `steps` / `maxSteps`, `disable`, `color`; `prompt` (text or
 * `{file:…}`) is read by `loadOpenCodeLevel`, where the file body wins.
 */
export const OPENCODE_HANDLERS: Readonly<Record<string, KeyHandler>> = {
  ...restrictionHandlers("inherit-minus"),
  permission: openCodePermission,
  description: f.description,
  mode: f.mode,
  model: f.modelHandler(),
  temperature: f.temperature,
  hidden: f.hidden,
  steps: f.maxTurns,
  maxSteps: f.maxTurns,
  color: f.color,
  name: (value, draft, ctx, key) => {
    if (typeof value === "string" && value.trim() !== draft.name) {
      const message = "OpenCode names an agent after its file or its key under agent";
      ctx.report("info", message, `ignored ${key} "${value}"`, key);
    }
  },
  top_p: f.unsupported("sampling options are set per model in config"),
  options: f.unsupported("provider options are set per model in config"),
  reasoningEffort: f.unsupported("reasoning effort is set per model in config"),
};
