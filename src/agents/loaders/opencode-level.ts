import { dirname, isAbsolute, join } from "node:path";
import { PermissionConfigError, rulesetFromConfig } from "../../permissions/ruleset-from-config.ts";
import { builtinAgents } from "../builtin-agents.ts";
import {
  type AgentDefinition,
  type AgentPermissionConfig,
  AgentPermissionConfigSchema,
  type AgentSourceKind,
} from "../definition.ts";
import { type Diagnostic, diagnostic } from "../diagnostics.ts";
import { type FrontMatter, parseFrontMatter } from "../front-matter.ts";
import { JsoncError, parseJsonc } from "./jsonc.ts";
import {
  applyKeys,
  type Draft,
  fileStem,
  finish,
  LoadContext,
  type LoadResult,
  resolveName,
} from "./load-context.ts";
import { OPENCODE_HANDLERS } from "./opencode-keys.ts";
import { type RestrictionKey, readBoolean, restrictionOf, setTwice } from "./restriction-keys.ts";
import { isPlainObject, mergePermission } from "./tool-list.ts";

/** A file's path and text. */
export interface OpenCodeFile {
  path: string;
  text: string;
}

/**
 * The OpenCode definitions of one level (the project, or the user's home): its config files and the
 * Markdown files of its agent folders. OpenCode reads them as one: every config file's `agent` entries
 * deep-merged in order, then each `.opencode/agent(s)/<name>.md` deep-merged over the entry of its name
 * (the Markdown's keys win; `permission` and `tools` maps merge key by key), and the configs' own
 * `permission` and `tools` under every agent of the level.
 */
export interface OpenCodeLevel {
  kind: AgentSourceKind;
  /** opencode.json(c) files in the order OpenCode merges them: a later one's keys win. */
  configs: readonly OpenCodeFile[];
  /** Agent Markdown files, in path order; the file stem is the agent's name. */
  markdown: readonly OpenCodeFile[];
  /** Config files that are there but could not be read (reported by the caller). */
  unreadableConfigs?: readonly string[];
  /** Resolves `{file:~/…}` prompts. */
  homeDir?: string;
}

/** The agents of a level, and the problems of its config files themselves. */
export interface LevelAgents {
  agents: LoadResult[];
  diagnostics: Diagnostic[];
}

/**
 * OpenCode's own primary and helper agents: an entry or agent file of that name without a description
 * tunes OpenCode's (its model, its prompt), it is no agent here.
 */
const OPENCODE_OWN = new Set(["build", "general", "title", "summary", "compaction"]);

/**
 * OpenCode's `explore` and `plan` are agentry's too (read-only both): a definition of that name tunes
 * the built-in, as it tunes OpenCode's, starting from its tools and rules.
 */
const SHARED_BUILTINS = new Set(["explore", "plan"]);

interface ConfigEntry {
  value: unknown;
  path: string;
  line: number | undefined;
}

interface Base {
  tools?: unknown;
  /** Always readable: a config whose permission cannot be read keeps the level's agents from loading. */
  permission?: AgentPermissionConfig;
}

/** Loads one level's OpenCode agents, merged as OpenCode merges them. Pure; never throws. */
export function loadOpenCodeLevel(level: OpenCodeLevel): LevelAgents {
  const diagnostics: Diagnostic[] = [];
  const unreadable: string[] = [...(level.unreadableConfigs ?? [])];
  let base: Base = {};
  const entries = new Map<string, ConfigEntry>();
  for (const config of level.configs) {
    let data: unknown;
    try {
      data = parseJsonc(config.text);
    } catch (error) {
      if (!(error instanceof JsoncError)) throw error;
      diagnostics.push(diagnostic("error", config.path, error.message, "skipped its agents", error.line));
      unreadable.push(config.path);
      continue;
    }
    if (!isPlainObject(data)) continue;
    const next = withConfigBase(base, data);
    if (typeof next === "string" || (data.agent !== undefined && !isPlainObject(data.agent))) {
      const message = typeof next === "string" ? next : "agent must map agent names to definitions";
      diagnostics.push(diagnostic("error", config.path, message, "skipped its agents"));
      unreadable.push(config.path);
      continue;
    }
    base = next;
    if (!isPlainObject(data.agent)) continue;
    const lines = entryLines(config.text, Object.keys(data.agent));
    for (const [name, value] of Object.entries(data.agent)) {
      const earlier = entries.get(name)?.value;
      const merged = isPlainObject(earlier) && isPlainObject(value) ? mergeDeep(earlier, value) : value;
      entries.set(name, { value: merged, path: config.path, line: lines.get(name) });
    }
  }
  const agents: LoadResult[] = [];
  const merged = new Set<string>();
  for (const file of level.markdown) {
    const name = fileStem(file.path);
    const entry = entries.get(name);
    if (entry !== undefined) merged.add(name);
    const markdown = { path: file.path, fm: parseFrontMatter(file.text, file.path) };
    agents.push(loadAgent(name, { markdown, entry }, { level, base, unreadable }));
  }
  for (const [name, entry] of entries) {
    if (!merged.has(name)) agents.push(loadAgent(name, { entry }, { level, base, unreadable }));
  }
  return { agents, diagnostics };
}

interface Parts {
  markdown?: { path: string; fm: FrontMatter };
  entry?: ConfigEntry | undefined;
}

interface LevelContext {
  level: OpenCodeLevel;
  base: Base;
  /** Config files of the level that could not be read: they may hold this agent's limits. */
  unreadable: readonly string[];
}

function loadAgent(name: string, parts: Parts, at: LevelContext): LoadResult {
  const { markdown, entry } = parts;
  const file = markdown?.path ?? entry?.path ?? "";
  const keyLines = markdown?.fm.keyLines ?? (entry?.line === undefined ? {} : { "": entry.line });
  const ctx = new LoadContext(
    file,
    keyLines,
    markdown?.fm.diagnostics ?? [],
    markdown === undefined ? `agent "${name}"` : undefined,
  );
  if (markdown !== undefined && !markdown.fm.present) {
    ctx.fail("no front matter: an agent file starts with a `---` block holding at least a description");
    return finish({}, ctx);
  }
  if (ctx.isSkipped) return finish({}, ctx);
  if (at.unreadable.length > 0) {
    ctx.fail(
      `${at.unreadable.join(" and ")} could not be read: as in OpenCode, its permission, tools and any agent entry named "${name}" apply to this agent, so it is not loaded without them`,
    );
    return finish({}, ctx);
  }
  if (entry !== undefined && !isPlainObject(entry.value)) {
    const where = markdown === undefined ? "" : ` (the entry "${name}" of ${entry.path})`;
    ctx.fail(`must be an object of agent keys (description, prompt, tools, permission …)${where}`);
    return finish({}, ctx);
  }
  const fromEntry = isPlainObject(entry?.value) ? entry.value : {};
  const fromMarkdown = markdown?.fm.data ?? {};
  const data = mergeDeep(fromEntry, fromMarkdown);
  if (readBoolean(data.disable) === true) {
    ctx.disable("the agent is disabled (disable: true)", "disable");
    return finish({}, ctx);
  }
  const builtin = SHARED_BUILTINS.has(name)
    ? builtinAgents().find((agent) => agent.name === name)
    : undefined;
  if (OPENCODE_OWN.has(name) && data.description === undefined) {
    ctx.disable(`configures OpenCode's built-in agent ${name}, not an agent of its own`);
    return finish({}, ctx);
  }
  if (markdown !== undefined && entry !== undefined) {
    ctx.report(
      "info",
      `merged with the agent "${name}" of ${entry.path}, as OpenCode merges them`,
      "this file's keys win; permission and tools maps merge key by key",
    );
  }
  const source = { kind: at.level.kind, format: "opencode", path: file } as const;
  const draft: Draft =
    builtin === undefined ? { mode: "all", prompt: "", source } : fromBuiltin(builtin, source);
  if (builtin !== undefined) {
    ctx.report(
      "info",
      `${name} is OpenCode's built-in agent too: this definition tunes agentry's built-in ${name}`,
      `started from the built-in's tools and rules; this definition's keys apply after them`,
    );
  }
  draft.name = resolveName(name, file, ctx, { given: true });
  const { prompt, ...keys } = withBase(data, at.base);
  const body = markdown?.fm.body ?? "";
  let promptFile: string | undefined;
  if (body !== "") {
    draft.prompt = body;
    if (prompt !== undefined) ctx.ignore("prompt", "the file body is the prompt", "info");
  } else if (prompt !== undefined) {
    const promptFrom = Object.hasOwn(fromMarkdown, "prompt") ? file : (entry?.path ?? file);
    promptFile = readPrompt(prompt, draft, ctx, promptFrom, at.level.homeDir);
  }
  applyKeys(keys, OPENCODE_HANDLERS, draft, ctx);
  return finish(draft, ctx, promptFile);
}

/** A built-in's tools, rules, prompt and description, under the definition that tunes it. */
function fromBuiltin(builtin: AgentDefinition, source: AgentDefinition["source"]): Draft {
  const { name: _name, source: _source, ...fields } = builtin;
  return { ...fields, source };
}

/** Plain objects merge key by key (the second's win, new keys after the first's); anything else is replaced. */
export function mergeDeep(
  first: Record<string, unknown>,
  second: Record<string, unknown>,
): Record<string, unknown> {
  const merged: Record<string, unknown> = { ...first };
  for (const [key, value] of Object.entries(second)) {
    const before = merged[key];
    merged[key] = isPlainObject(before) && isPlainObject(value) ? mergeDeep(before, value) : value;
  }
  return merged;
}

/**
 * The `permission` and `tools` of the level's configs so far, with this config's after them (under any
 * spelling: OpenCode V2 writes `permissions`), or why they cannot be read.
 */
function withConfigBase(base: Base, config: Record<string, unknown>): Base | string {
  const tools = keyFor(config, "tools");
  const permission = keyFor(config, "permission");
  if ("problem" in tools) return tools.problem;
  if ("problem" in permission) return permission.problem;
  const next: Base = { ...base };
  const ownTools = config[tools.key];
  if (ownTools !== undefined) {
    next.tools =
      isPlainObject(base.tools) && isPlainObject(ownTools) ? { ...base.tools, ...ownTools } : ownTools;
  }
  const ownPermission = config[permission.key];
  if (ownPermission !== undefined) {
    const read = readPermission(ownPermission, permission.key);
    if (!read.ok) return read.problem;
    next.permission =
      base.permission === undefined ? read.value : mergePermission(base.permission, read.value);
  }
  return next;
}

/**
 * The configs' `tools` map under the agent's, their `permission` rules before the agent's, under the
 * key the agent writes them with (`permissions`, `allowed-tools` …). An agent that writes one of them
 * twice fails in `applyKeys`, which names both keys.
 */
function withBase(data: Record<string, unknown>, base: Base): Record<string, unknown> {
  const merged = { ...data };
  const tools = keyFor(data, "tools");
  const permission = keyFor(data, "permission");
  if (base.tools !== undefined && "key" in tools) {
    const own = data[tools.key];
    merged[tools.key] =
      isPlainObject(base.tools) && isPlainObject(own) ? { ...base.tools, ...own } : (own ?? base.tools);
  }
  if (base.permission !== undefined && "key" in permission) {
    merged[permission.key] = underBase(base.permission, data[permission.key], permission.key);
  }
  return merged;
}

/** The key `data` writes a restriction under, its canonical name when none; a problem when two. */
function keyFor(
  data: Record<string, unknown>,
  canonical: RestrictionKey,
): { key: string } | { problem: string } {
  const keys = Object.keys(data).filter((key) => restrictionOf(key) === canonical);
  if (keys.length < 2) return { key: keys[0] ?? canonical };
  return { problem: setTwice(keys, canonical) };
}

/** The configs' rules, then the agent's; an agent's own that cannot be read goes on, and its handler fails the agent. */
function underBase(base: AgentPermissionConfig, own: unknown, key: string): unknown {
  if (own === undefined) return base;
  const read = readPermission(own, key);
  return read.ok ? mergePermission(base, read.value) : own;
}

/** The value when the permission handler would accept it (strictly: no extra keys in a rule), else why not. */
function readPermission(
  value: unknown,
  key: string,
): { ok: true; value: AgentPermissionConfig } | { ok: false; problem: string } {
  try {
    rulesetFromConfig(value, key);
  } catch (error) {
    if (!(error instanceof PermissionConfigError)) throw error;
    return { ok: false, problem: error.issues.join("; ") };
  }
  const parsed = AgentPermissionConfigSchema.safeParse(value);
  return parsed.success
    ? { ok: true, value: parsed.data }
    : { ok: false, problem: `${key} is not a rule list, an action or a permission map` };
}

/** `prompt` as text, or `{file:./prompts/x.md}` relative to the file that gave it (discovery reads it). */
function readPrompt(
  prompt: unknown,
  draft: Draft,
  ctx: LoadContext,
  from: string,
  homeDir: string | undefined,
): string | undefined {
  if (typeof prompt !== "string") {
    ctx.ignore("prompt", "not a string");
    return undefined;
  }
  const ref = /^\{file:(.+)\}$/.exec(prompt.trim())?.[1]?.trim();
  if (ref === undefined) {
    draft.prompt = prompt.trim();
    return undefined;
  }
  if (!ref.startsWith("~/")) return isAbsolute(ref) ? ref : join(dirname(from), ref);
  if (homeDir !== undefined) return join(homeDir, ref.slice(2));
  const why = "is in the home folder, which is not known when a file is loaded on its own";
  ctx.ignore("prompt", `${ref} ${why}`);
  return undefined;
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
