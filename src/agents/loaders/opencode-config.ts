import { dirname, isAbsolute, join } from "node:path";
import { rulesetFromConfig } from "../../permissions/ruleset-from-config.ts";
import {
  type AgentPermissionConfig,
  AgentPermissionConfigSchema,
  type AgentSourceKind,
} from "../definition.ts";
import { type Diagnostic, diagnostic } from "../diagnostics.ts";
import { JsoncError, parseJsonc } from "./jsonc.ts";
import { applyKeys, type Draft, finish, LoadContext, type LoadResult, resolveName } from "./load-context.ts";
import { OPENCODE_HANDLERS } from "./opencode.ts";
import { readBoolean } from "./restriction-keys.ts";
import { isPlainObject, mergePermission } from "./tool-list.ts";

/** The agents of one config file (opencode.json, .codex/config.toml) and the problems of the file itself. */
export interface ConfigAgents {
  agents: LoadResult[];
  diagnostics: Diagnostic[];
}

/** OpenCode's own agents: an entry of that name tunes OpenCode's built-in, it does not define an agent. */
const OPENCODE_BUILTINS = new Set(["build", "plan", "general", "explore", "title", "summary", "compaction"]);

/**
 * The `agent` entries of an opencode.json(c): `{ "agent": { "review": { "description": …, "prompt":
 * "{file:./prompts/review.md}", "tools": {…}, "permission": {…} } } }`, read with the keys of an
 * OpenCode agent file. The file's top-level `permission` and `tools` apply to its agents first, as in
 * OpenCode, so an agent defined there never gets more than the file allows everywhere.
 * `homeDir` resolves `{file:~/…}`.
 */
export function loadOpenCodeConfig(
  text: string,
  path: string,
  kind: AgentSourceKind = "project",
  homeDir?: string,
): ConfigAgents {
  let data: unknown;
  try {
    data = parseJsonc(text);
  } catch (error) {
    if (!(error instanceof JsoncError)) throw error;
    return {
      agents: [],
      diagnostics: [diagnostic("error", path, error.message, "skipped its agents", error.line)],
    };
  }
  if (!isPlainObject(data) || data.agent === undefined) return { agents: [], diagnostics: [] };
  if (!isPlainObject(data.agent)) {
    const problem = diagnostic(
      "error",
      path,
      "agent must map agent names to definitions",
      "skipped its agents",
    );
    return { agents: [], diagnostics: [problem] };
  }
  const lines = entryLines(text, Object.keys(data.agent));
  const agents = Object.entries(data.agent).map(([name, entry]) =>
    loadEntry(name, entry, {
      path,
      kind,
      homeDir,
      line: lines.get(name),
      base: data as Record<string, unknown>,
    }),
  );
  return { agents, diagnostics: [] };
}

interface EntryContext {
  path: string;
  kind: AgentSourceKind;
  homeDir: string | undefined;
  line: number | undefined;
  /** The whole config: its `permission` and `tools` apply to every agent first. */
  base: Record<string, unknown>;
}

function loadEntry(name: string, entry: unknown, at: EntryContext): LoadResult {
  const keyLines = at.line === undefined ? {} : { "": at.line };
  const ctx = new LoadContext(at.path, keyLines, [], `agent "${name}"`);
  if (!isPlainObject(entry)) {
    ctx.fail("must be an object of agent keys (description, prompt, tools, permission …)");
    return finish({}, ctx);
  }
  if (readBoolean(entry.disable) === true) {
    ctx.disable("the agent is disabled (disable: true)", "disable");
    return finish({}, ctx);
  }
  if (OPENCODE_BUILTINS.has(name) && entry.description === undefined) {
    ctx.disable(`configures OpenCode's built-in agent ${name}, not an agent of its own`);
    return finish({}, ctx);
  }
  const { prompt, ...keys } = withBase(entry, at.base);
  const draft: Draft = {
    mode: "all",
    prompt: "",
    source: { kind: at.kind, format: "opencode", path: at.path },
  };
  draft.name = resolveName(name, at.path, ctx, { given: true });
  const promptFile = readPrompt(prompt, draft, ctx, at);
  applyKeys(keys, OPENCODE_HANDLERS, draft, ctx);
  return finish(draft, ctx, promptFile);
}

/** The config's `tools` map under the agent's, the config's `permission` rules before the agent's. */
function withBase(entry: Record<string, unknown>, base: Record<string, unknown>): Record<string, unknown> {
  const merged = { ...entry };
  if (base.tools !== undefined) {
    merged.tools =
      isPlainObject(base.tools) && isPlainObject(entry.tools)
        ? { ...base.tools, ...entry.tools }
        : (entry.tools ?? base.tools);
  }
  if (base.permission !== undefined) {
    merged.permission =
      entry.permission === undefined ? base.permission : mergeOrKeepBoth(base.permission, entry.permission);
  }
  return merged;
}

/** Two readable permissions merge; otherwise the unreadable one goes on, and its handler fails the agent. */
function mergeOrKeepBoth(base: unknown, own: unknown): unknown {
  const baseRules = readablePermission(base);
  const ownRules = readablePermission(own);
  if (baseRules === undefined) return base;
  if (ownRules === undefined) return own;
  return mergePermission(baseRules, ownRules);
}

/** The value when the permission handler would accept it (strictly: no extra keys in a rule). */
function readablePermission(value: unknown): AgentPermissionConfig | undefined {
  try {
    rulesetFromConfig(value);
  } catch {
    return undefined;
  }
  const parsed = AgentPermissionConfigSchema.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}

/** `prompt` as text, or `{file:./prompts/x.md}` relative to the config file (discovery reads it). */
function readPrompt(prompt: unknown, draft: Draft, ctx: LoadContext, at: EntryContext): string | undefined {
  if (prompt === undefined) return undefined;
  if (typeof prompt !== "string") {
    ctx.ignore("prompt", "not a string");
    return undefined;
  }
  const ref = /^\{file:(.+)\}$/.exec(prompt.trim())?.[1]?.trim();
  if (ref === undefined) {
    draft.prompt = prompt.trim();
    return undefined;
  }
  if (ref.startsWith("~/")) return at.homeDir === undefined ? undefined : join(at.homeDir, ref.slice(2));
  return isAbsolute(ref) ? ref : join(dirname(at.path), ref);
}

/** JSON has no positions to ask for: the line of each agent's `"name":` after `"agent"` is close enough. */
function entryLines(text: string, names: readonly string[]): Map<string, number> {
  const lines = new Map<string, number>();
  const start = text.search(/"agent"\s*:/);
  if (start === -1) return lines;
  for (const name of names) {
    const at = text.indexOf(`${JSON.stringify(name)}`, start + 7);
    if (at !== -1) lines.set(name, text.slice(0, at).split("\n").length);
  }
  return lines;
}
