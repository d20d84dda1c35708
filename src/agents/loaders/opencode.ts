import type { AgentSourceKind } from "../definition.ts";
import * as f from "./fields.ts";
import { fileStem, type KeyHandler, type LoadResult } from "./load-context.ts";
import { loadMarkdownAgent } from "./markdown-agent.ts";
import { restrictionHandlers } from "./policy-fields.ts";
import { readBoolean } from "./restriction-keys.ts";

/**
 * OpenCode's `.opencode/agent(s)/**\/*.md`. The file stem is the agent's name. Keys: `description`,
 * `mode` (default `all`), `model` (`provider/model`), `temperature`, `tools` (boolean map),
 * `permission` (map), `hidden`, `steps` / `maxSteps`, `disable`, `color`, `prompt`.
 */
export const OPENCODE_HANDLERS: Readonly<Record<string, KeyHandler>> = {
  ...restrictionHandlers("inherit-minus"),
  description: f.description,
  mode: f.mode,
  model: f.modelHandler(),
  temperature: f.temperature,
  hidden: f.hidden,
  steps: f.maxTurns,
  maxSteps: f.maxTurns,
  color: f.color,
  name: (value, _draft, ctx, key) => {
    if (typeof value === "string" && value.trim() !== fileStem(ctx.file)) {
      ctx.report("info", `OpenCode names an agent after its file`, `ignored ${key} "${value}"`, key);
    }
  },
  prompt: (value, draft, ctx, key) => {
    if (typeof value !== "string") return ctx.ignore(key, "not a string");
    if (/^\{file:.*\}$/.test(value.trim())) return ctx.ignore(key, "file references are not supported");
    if ((draft.prompt ?? "") !== "") return ctx.ignore(key, "the file body is the prompt", "info");
    draft.prompt = value.trim();
  },
  top_p: f.unsupported("sampling options are set per model in config"),
  options: f.unsupported("provider options are set per model in config"),
  reasoningEffort: f.unsupported("reasoning effort is set per model in config"),
};

export function loadOpenCodeAgent(text: string, path: string, kind: AgentSourceKind = "project"): LoadResult {
  return loadMarkdownAgent(text, path, kind, {
    format: "opencode",
    mode: "all",
    handlers: OPENCODE_HANDLERS,
    name: { stemIsIdentity: true },
    before: (data, ctx) => {
      // A disabled agent is not loaded, whatever else its file says (`"true"` counts too).
      if (readBoolean(data.disable) !== true) return undefined;
      ctx.disable("the agent is disabled (disable: true)", "disable");
      return { diagnostics: ctx.diagnostics };
    },
  });
}
