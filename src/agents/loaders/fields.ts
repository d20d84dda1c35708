import { HookSettingsError, readHookSettings } from "../../hooks/hook-settings.ts";
import { AGENT_MODES, type AgentMode, type McpServerRef } from "../definition.ts";
import type { KeyHandler } from "./load-context.ts";
import { modelProblem } from "./model-check.ts";
import { isPlainObject } from "./tool-list.ts";

/** Readers for the keys several formats share. Each one reports what it cannot use. */

const MODEL_ALIASES = new Set(["sonnet", "opus", "haiku"]);

/**
 * Normalizes a model reference to `provider:model` or an alias. Claude writes `sonnet` or
 * `claude-sonnet-4-5`, OpenCode `anthropic/claude-sonnet-4-5`, Codex `gpt-5-codex`.
 * `inherit` means "no model of its own". A name we cannot place is kept, with a warning.
 */
export function normalizeModel(
  raw: string,
  defaultProvider?: string,
): { model?: string; unrecognized?: true } {
  const model = raw.trim();
  const lower = model.toLowerCase();
  if (model === "" || lower === "inherit") return {};
  if (MODEL_ALIASES.has(lower)) return { model: lower };
  const slash = model.indexOf("/");
  const colon = model.indexOf(":");
  if (colon > 0 && (slash === -1 || colon < slash)) return { model };
  if (slash > 0) return { model: `${model.slice(0, slash)}:${model.slice(slash + 1)}` };
  // Codex's `model_provider` says where a bare name runs, even for a name that looks like OpenAI's.
  if (defaultProvider !== undefined) return { model: `${defaultProvider}:${model}` };
  if (lower.startsWith("claude-")) return { model: `anthropic:${model}` };
  if (/^(gpt-|chatgpt-|codex-|o\d)/.test(lower)) return { model: `openai:${model}` };
  return { model, unrecognized: true };
}

export function modelHandler(defaultProvider?: string): KeyHandler {
  return (value, draft, ctx) => {
    if (typeof value !== "string") return ctx.ignore("model", "not a string");
    const { model, unrecognized } = normalizeModel(value, defaultProvider);
    if (unrecognized === true) {
      ctx.report(
        "warning",
        `model "${value}" is not an alias (sonnet, opus, haiku, inherit) or a provider:model id`,
        "kept it as written; config must define it as an alias",
        "model",
      );
    }
    const problem = model === undefined ? undefined : modelProblem(model);
    if (problem !== undefined) ctx.report("warning", problem.message, problem.action, "model");
    if (model !== undefined) draft.model = model;
  };
}

/** Descriptions in the wild carry literal `\n` sequences; the parent model should see real line breaks. */
export const description: KeyHandler = (value, draft, ctx) => {
  if (typeof value !== "string") {
    if (value !== null && value !== undefined) ctx.ignore("description", "not a string");
    return;
  }
  draft.description = value.replace(/\\n/g, "\n").trim();
};

export const color: KeyHandler = (value, draft, ctx) => {
  if (typeof value === "string" && value.trim() !== "") draft.color = value.trim();
  else ctx.ignore("color", "not a color name", "info");
};

export const temperature: KeyHandler = (value, draft, ctx) => {
  if (typeof value === "number" && value >= 0 && value <= 2) draft.temperature = value;
  else ctx.ignore("temperature", "not a number between 0 and 2");
};

export const hidden: KeyHandler = (value, draft, ctx) => {
  if (typeof value === "boolean") draft.hidden = value;
  else ctx.ignore("hidden", "not true or false");
};

export const background: KeyHandler = (value, draft, ctx) => {
  if (typeof value === "boolean") draft.background = value;
  else ctx.ignore("background", "not true or false");
};

/** `maxTurns` and its aliases (`maxIters`, `steps`, `maxSteps`). */
export const maxTurns: KeyHandler = (value, draft, ctx, key) => {
  // A string counts only as decimal digits: `Number` would also read "0x10", "1e2" and "" (as 0).
  const turns = typeof value === "string" ? (/^\s*\d+\s*$/.test(value) ? Number(value) : Number.NaN) : value;
  if (typeof turns !== "number" || !Number.isInteger(turns) || turns <= 0) {
    return ctx.ignore(key, "not a positive whole number");
  }
  if (draft.maxTurns !== undefined && draft.maxTurns !== turns) {
    ctx.report(
      "warning",
      `${key} conflicts with another turn limit (${draft.maxTurns})`,
      `used the smaller`,
      key,
    );
  }
  draft.maxTurns = Math.min(turns, draft.maxTurns ?? turns);
};

export const mode: KeyHandler = (value, draft, ctx) => {
  if (typeof value === "string" && (AGENT_MODES as readonly string[]).includes(value)) {
    draft.mode = value as AgentMode;
  } else {
    ctx.ignore("mode", `must be one of ${AGENT_MODES.join(", ")}`);
  }
};

/**
 * MCP servers as Claude writes them (`[github, {name: config}]`), as a map (`{github: {...}}`, Codex's
 * `[mcp_servers.github]`), or a single name.
 */
export const mcpServers: KeyHandler = (value, draft, ctx, key) => {
  const refs: McpServerRef[] = [];
  const add = (item: unknown): void => {
    if (typeof item === "string" && item.trim() !== "") refs.push({ name: item.trim() });
    else if (isPlainObject(item)) {
      for (const [name, config] of Object.entries(item)) {
        if (isPlainObject(config)) refs.push({ name, config });
        else
          ctx.report("warning", `${key}: server ${name} has no configuration table`, `ignored ${name}`, key);
      }
    } else
      ctx.report(
        "warning",
        `${key}: not a server name or table (${JSON.stringify(item)})`,
        "ignored it",
        key,
      );
  };
  if (Array.isArray(value)) value.forEach(add);
  else add(value);
  if (refs.length > 0) draft.mcpServers = [...(draft.mcpServers ?? []), ...refs];
};

/**
 * Claude Code's `hooks:` for this agent only, in its settings' shape. A value that cannot be read fails
 * the file: the hooks may enforce limits, and an agent without them could do more than its author meant.
 * Hooks agentry cannot run (another type, an event it does not fire) are warnings.
 */
export const hooks: KeyHandler = (value, draft, ctx, key) => {
  // The diagnostic names the file already: its messages start at `hooks…`.
  const local = (message: string) => message.slice(`${ctx.file}: `.length);
  try {
    const read = readHookSettings(value, { label: ctx.file, scope: "agent" });
    for (const warning of read.warnings) ctx.report("warning", local(warning), "that hook does not run", key);
    draft.hooks = value as Record<string, unknown>;
  } catch (error) {
    if (!(error instanceof HookSettingsError)) throw error;
    ctx.fail(local(error.message), key);
  }
};

/** `skills:` (Claude Code's subagent field): names of skills preloaded into the agent, a list or a comma string. */
export const skills: KeyHandler = (value, draft, ctx, key) => {
  const names = typeof value === "string" ? value.split(",") : Array.isArray(value) ? value : undefined;
  if (names === undefined || names.some((name) => typeof name !== "string"))
    return ctx.ignore(key, "not a list of skill names");
  const list = (names as string[]).map((name) => name.trim()).filter((name) => name !== "");
  if (list.length > 0) draft.skills = [...new Set(list)];
};

/** Keys of other harnesses we recognise but do not act on. Hooks may enforce limits, so they warn. */
export function unsupported(why: string, severity: "info" | "warning" = "info"): KeyHandler {
  return (_value, _draft, ctx, key) => ctx.ignore(key, why, severity);
}
