import type { AgentSourceKind } from "../definition.ts";
import { parseFrontMatter } from "../front-matter.ts";
import * as f from "./fields.ts";
import {
  applyKeys,
  type Draft,
  fileStem,
  finish,
  type KeyHandler,
  LoadContext,
  type LoadResult,
  resolveName,
} from "./load-context.ts";
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
  const fm = parseFrontMatter(text, path);
  const ctx = new LoadContext(path, fm.keyLines, fm.diagnostics);
  if (!fm.present) {
    ctx.fail("no front matter: an agent file starts with a `---` block holding at least a description");
    return finish({}, ctx);
  }
  if (ctx.isSkipped) return finish({}, ctx);
  // A disabled agent is not loaded, whatever else its file says (`"true"` counts too).
  if (readBoolean(fm.data.disable) === true) {
    ctx.disable("the agent is disabled (disable: true)", "disable");
    return { diagnostics: ctx.diagnostics };
  }
  const draft: Draft = { mode: "all", prompt: fm.body, source: { kind, format: "opencode", path } };
  draft.name = resolveName(undefined, path, ctx, { stemIsIdentity: true });
  applyKeys(fm.data, OPENCODE_HANDLERS, draft, ctx);
  return finish(draft, ctx);
}
