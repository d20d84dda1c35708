import { parse as parseToml } from "smol-toml";
import { parseDocument } from "yaml";
import type { FuzzFile } from "./generate-agent-file.ts";

/**
 * The fuzz test's reference: a deliberately simple, conservative reading of an agent file, written
 * without the loaders' code. It answers "at most, what does this file ask for?": the tools an agent
 * may get and, for a few probe requests, the widest action it may get. What it cannot read it calls
 * unreadable, and then the loaders must not load the file at all.
 *
 * Its rules are the documented ones (docs/agent-files.md): restrictions in any spelling; a file that
 * names a restriction it cannot read, or one twice, is unreadable; a tools map gives its trues (only
 * OpenCode's map of falses means "all but these"); read-only modes and `Bash(x)` patterns are ceilings
 * that allow what they name unless the file's own rules say otherwise.
 */

export type Action = "deny" | "ask" | "allow";
export const ACTION_RANK: Record<Action, number> = { deny: 0, ask: 1, allow: 2 };

export interface Probe {
  permission: "edit" | "read" | "bash" | "task";
  value: string;
}

export const PROBES: readonly Probe[] = [
  ...["src/index.ts", "docs/guide.md", ".env"].map((value) => ({ permission: "edit" as const, value })),
  ...["src/index.ts", ".env"].map((value) => ({ permission: "read" as const, value })),
  ...[
    "ls",
    "git status",
    "git diff HEAD",
    "git push",
    "rm -rf build",
    "npm test",
    "cat .env",
    "curl x.dev",
  ].map((value) => ({ permission: "bash" as const, value })),
  ...["explore", "plan", "general-purpose"].map((value) => ({ permission: "task" as const, value })),
];

/** The parent's tools in the fuzz test (plus `task`, which a child gets as its own spawn tool). */
export const POOL = [
  "bash",
  "read",
  "write",
  "edit",
  "grep",
  "glob",
  "list",
  "mcp__github__create_issue",
  "task",
];

export interface Ceiling {
  kind: "ceiling";
  tools: ReadonlySet<string>;
  widest(probe: Probe): Action;
}
export type Reading = Ceiling | { kind: "unreadable"; why: string };

/** One reading per agent the file defines, by name (`""` for a single-agent file). */
export function referenceReadings(file: FuzzFile): Map<string, Reading> {
  switch (file.format) {
    case "codex":
      return new Map([["", readToml(file.text)]]);
    case "codex-config":
      return readCodexConfig(file);
    case "opencode-config":
      return readOpenCodeConfig(file.text);
    case "opencode-level":
      return readOpenCodeLevel(file);
    default:
      return new Map([["", readMarkdown(file.text, file.format === "opencode" ? "opencode" : "other")]]);
  }
}

const unreadable = (why: string): Reading => ({ kind: "unreadable", why });

// ------------------------------------------------------------------ what keys mean

type Group =
  | "tools"
  | "deny"
  | "permission"
  | "mode"
  | "sandbox"
  | "readonly"
  | "readonlybash"
  | "disable"
  | "workspace"
  | "benign"
  | "restriction-like";

const GROUPS: Record<string, Group> = {
  tools: "tools",
  tool: "tools",
  allowedtools: "tools",
  enabledtools: "tools",
  disallowedtools: "deny",
  deniedtools: "deny",
  disabledtools: "deny",
  permission: "permission",
  permissions: "permission",
  permissionmode: "mode",
  sandbox: "sandbox",
  sandboxmode: "sandbox",
  readonly: "readonly",
  readonlybash: "readonlybash",
  disable: "disable",
  disabled: "disable",
  workspace: "workspace",
  isolation: "workspace",
};

const WORDS = [
  "tool",
  "permi",
  "allow",
  "deny",
  "denied",
  "disable",
  "sandbox",
  "readonly",
  "restrict",
  "forbid",
  "block",
  "exclude",
  "access",
  "capabilit",
  "bash",
  "shell",
  "command",
];
const TOOL_WORDS = ["read", "write", "edit", "grep", "glob", "list", "ls", "task", "agent", "multiedit"];
/** Codex keys that sound like limits but are not (the reference knows them from Codex's docs). */
const CODEX_BENIGN = ["sandboxworkspacewrite"];

function groupOf(key: string, format: "codex" | "other"): Group {
  const k = key.toLowerCase().replace(/[^a-z0-9]/g, "");
  const group = GROUPS[k];
  if (group !== undefined) return group;
  // Claude Code plugin agents' metadata: it grants nothing, however it is read.
  if (k === "capabilities" || k === "capability") return "benign";
  if (format === "codex" && CODEX_BENIGN.includes(k)) return "benign";
  // A key in other letters that reads as a limit (`tоols`, `ｔｏｏｌｓ`): a harness ignores it.
  const look = latinLook(key);
  if (look !== key && groupOf(look, format) !== "benign") return "restriction-like";
  if (WORDS.some((word) => k.includes(word)) || TOOL_WORDS.includes(k)) return "restriction-like";
  return "benign";
}

/** What a key in other scripts looks like in Latin letters (the lookalikes the fuzz writes, and more). */
function latinLook(key: string): string {
  const lookalikes: Record<string, string> = {
    о: "o",
    ο: "o",
    і: "i",
    ι: "i",
    а: "a",
    е: "e",
    с: "c",
    р: "p",
    ѕ: "s",
    т: "t",
  };
  return key
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^\x20-\x7e]/g, (char) => lookalikes[char] ?? char);
}

/** A line no one can read that may have held a limit: an orphaned `- Bash`, or a word like `tools`. */
function mentionsRestriction(line: string): boolean {
  const item = /^\s*-\s*["']?([A-Za-z_]+)/.exec(line)?.[1];
  if (item !== undefined && toolOf(item) !== undefined) return true;
  return line.split(/[^A-Za-z_-]+/).some((word) => {
    const k = word.toLowerCase().replace(/[-_]/g, "");
    return k !== "" && (GROUPS[k] !== undefined || WORDS.some((w) => k.includes(w)));
  });
}

// ------------------------------------------------------------------ Markdown front matter

/** A value the reference could not parse as YAML; `inline` is the text after `key:`. */
interface Unparsed {
  unparsed: true;
  inline: string;
  items: string[];
}

function readMarkdown(text: string, flavour: "opencode" | "other"): Reading {
  const read = markdownEntries(text);
  if ("why" in read) return unreadable(read.why);
  return interpret(read.entries, flavour === "opencode" ? "opencode" : "strict-maps");
}

/** The front matter's keys and values, in order, or why they cannot be read. */
function markdownEntries(text: string): { entries: Array<[string, unknown]> } | { why: string } {
  const lines = text
    .replace(/^\uFEFF/, "")
    .replace(/\r\n?/g, "\n")
    .split("\n");
  if (!/^---\s*$/.test(lines[0] ?? "")) return { why: "no front matter" };
  let close = lines.findIndex((line, i) => i > 0 && /^---\s*$/.test(line));
  // YAML's document end: nothing after it is read, so nothing of the front matter may follow it.
  const end = lines.findIndex((line, i) => i > 0 && (close === -1 || i < close) && /^\.\.\.\s*$/.test(line));
  if (close === -1) close = end;
  if (close === -1) return { why: "front matter not closed" };
  if (
    end !== -1 &&
    end < close &&
    lines.slice(end + 1, close).some((l) => l.trim() !== "" && !/^\s*#/.test(l))
  )
    return { why: "front matter goes on after `...`" };
  if (end !== -1 && end < close) close = end;
  const entries: Array<[string, unknown]> = [];
  let chunk: string[] = [];
  // A front matter indented as a whole is still one mapping.
  const body = lines.slice(1, close);
  const margin = Math.min(
    ...body.filter((l) => l.trim() !== "").map((l) => /^[ ]*/.exec(l)?.[0].length ?? 0),
  );
  const flush = (): { why: string } | undefined => {
    if (chunk.length === 0) return undefined;
    const result = readChunk(chunk);
    chunk = [];
    if ("why" in result) return { why: result.why };
    if (result.key !== undefined) entries.push([result.key, result.value]);
    return undefined;
  };
  for (const raw of body) {
    const line = Number.isFinite(margin)
      ? raw.slice(Math.min(margin, /^[ ]*/.exec(raw)?.[0].length ?? 0))
      : raw;
    if (line.trim() === "" || /^#/.test(line)) {
      if (chunk.length > 0) chunk.push(line);
      continue;
    }
    // A `- item` at column 0 continues a key whose value starts on the next line (`tools:\n- Read`).
    const continues = /^\s/.test(line) || (/^-(\s|$)/.test(line) && /:\s*(#.*)?$/.test(chunk[0] ?? ""));
    if (!continues) {
      const problem = flush();
      if (problem !== undefined) return problem;
    }
    chunk.push(line);
  }
  const problem = flush();
  if (problem !== undefined) return problem;
  return { entries };
}

function readChunk(chunk: string[]): { key?: string; value?: unknown } | { why: string } {
  const [first = "", ...rest] = chunk;
  // A plain key runs to the first ": " (YAML's rule), so `tools:: x` is the key `tools:`.
  const match = /^(?:"([^"]*)"|'([^']*)'|([A-Za-z_$][^\s]*?))[ \t]*:(?:[ \t]+(.*)|[ \t]*)$/.exec(first);
  if (match === null) {
    for (const line of chunk) {
      const key = /^\s*-?\s*["']?([A-Za-z_$][\w$. -]*?)["']?[ \t]*:(\s|$)/.exec(line)?.[1];
      const limits = key === undefined ? mentionsRestriction(line) : groupOf(key, "other") !== "benign";
      if (limits) return { why: `a restriction in a line without a key: ${line}` };
    }
    return {};
  }
  const key = match[1] ?? match[2] ?? match[3] ?? "";
  const inline = (match[4] ?? "").trim().replace(/^#.*$/, "");
  if (inline !== "" && !/^[|>]/.test(inline)) {
    for (const line of rest) {
      const hidden = /^\s+-?\s*["']?([A-Za-z_$][\w$.-]*)["']?\s*:(\s|$)/.exec(line)?.[1];
      if (hidden !== undefined && groupOf(hidden, "other") !== "benign")
        return { why: `${hidden} folded into the value of ${key}` };
    }
  }
  try {
    const doc = parseDocument(`v: ${inline}\n${rest.join("\n")}`, { uniqueKeys: true });
    if (doc.errors.length > 0) throw new Error(doc.errors[0]?.message);
    return { key, value: (doc.toJS() as { v: unknown }).v };
  } catch {
    const items = rest.map((line) => line.trim().replace(/^-\s*/, "")).filter((line) => line !== "");
    const value: Unparsed = { unparsed: true, inline, items };
    return { key, value };
  }
}

// ------------------------------------------------------------------ TOML and JSON

function readToml(text: string): Reading {
  let data: Record<string, unknown>;
  try {
    data = parseToml(text) as Record<string, unknown>;
  } catch {
    return unreadable("not TOML");
  }
  return interpret(Object.entries(data), "codex");
}

function readCodexConfig(file: FuzzFile): Map<string, Reading> {
  const readings = new Map<string, Reading>();
  let data: Record<string, unknown>;
  try {
    data = parseToml(file.text) as Record<string, unknown>;
  } catch {
    return readings;
  }
  const agents = data.agents;
  if (!isObject(agents)) return readings;
  for (const [name, role] of Object.entries(agents)) {
    if (!isObject(role)) continue;
    if (
      Object.keys(role).some((key) => !["description", "config_file", "nickname_candidates"].includes(key))
    ) {
      readings.set(name, unreadable("a role key Codex does not have"));
      continue;
    }
    const path = typeof role.config_file === "string" ? role.config_file : undefined;
    const text = path === undefined ? "" : file.roleFiles?.[path];
    if (text === undefined) {
      readings.set(name, unreadable("no role file"));
      continue;
    }
    let roleData: Record<string, unknown>;
    try {
      roleData = parseToml(text) as Record<string, unknown>;
    } catch {
      readings.set(name, unreadable("role file not TOML"));
      continue;
    }
    readings.set(
      name,
      interpret(
        Object.entries(roleData).filter(([key]) => key !== "name"),
        "codex",
      ),
    );
  }
  return readings;
}

function readOpenCodeConfig(text: string): Map<string, Reading> {
  const readings = new Map<string, Reading>();
  const data = parseOpenCodeJson(text);
  if (data === undefined || !isObject(data) || !isObject(data.agent)) return readings;
  for (const [name, agent] of Object.entries(data.agent)) {
    if (!isObject(agent)) continue;
    readings.set(name, readOpenCodeAgent(agent, data));
  }
  return readings;
}

/** opencode.json(c) as JSON (line comments and trailing commas allowed); undefined when it is not. */
function parseOpenCodeJson(text: string): unknown {
  const json = text
    .split("\n")
    .filter((line) => !/^\s*\/\//.test(line))
    .join("\n")
    .replace(/,(\s*[}\]])/g, "$1");
  let data: unknown;
  try {
    data = JSON.parse(json);
  } catch {
    return undefined;
  }
  // Two of one key in an object: JSON.parse keeps the last, which may be the wider.
  if (parseDocument(json, { uniqueKeys: true }).errors.length > 0) return undefined;
  return data;
}

/**
 * One agent's keys with the config's `tools` under them and its `permission` before them, under the
 * key the agent writes them with (`allowed-tools`, `permissions` …).
 */
function readOpenCodeAgent(agent: Record<string, unknown>, config: Record<string, unknown>): Reading {
  const merged: Record<string, unknown> = { ...agent };
  const spelling = (group: Group): string =>
    Object.keys(agent).find((key) => groupOf(key, "other") === group) ?? group;
  const toolsKey = spelling("tools");
  const permissionKey = spelling("permission");
  if (config.tools !== undefined)
    merged[toolsKey] =
      isObject(config.tools) && isObject(agent[toolsKey])
        ? { ...config.tools, ...(agent[toolsKey] as Record<string, unknown>) }
        : (agent[toolsKey] ?? config.tools);
  let base: Rule[] = [];
  if (config.permission !== undefined) {
    const own = agent[permissionKey];
    if (isOpenCodeMap(config.permission) && isOpenCodeMap(own))
      merged[permissionKey] = mergeMaps(config.permission, own);
    else if (own === undefined) merged[permissionKey] = config.permission;
    else {
      // Not two maps: the file's rules, then the agent's (the last matching rule wins).
      const rules = readPermission(config.permission);
      if (rules === undefined) return unreadable("the file's permission");
      base = rules;
    }
  }
  return interpret(Object.entries(merged), "opencode", base);
}

/**
 * An opencode.json and agent Markdown files read as OpenCode reads them: a file and the config's agent
 * of its name are one agent (the file's keys deep-merged over the entry's), the config's `permission`
 * and `tools` under every agent. A config that cannot be read may hold any of their limits.
 */
function readOpenCodeLevel(file: FuzzFile): Map<string, Reading> {
  const readings = new Map<string, Reading>();
  const data = parseOpenCodeJson(file.text);
  const markdown = Object.entries(file.markdown ?? {});
  const broken = data === undefined || (isObject(data) && data.agent !== undefined && !isObject(data.agent));
  const config: Record<string, unknown> = isObject(data) ? data : {};
  const agents: Record<string, unknown> = isObject(config.agent) ? config.agent : {};
  for (const [name, text] of markdown) {
    if (broken) {
      readings.set(name, unreadable("the config"));
      continue;
    }
    const read = markdownEntries(text);
    if ("why" in read) {
      readings.set(name, unreadable(read.why));
      continue;
    }
    const entry = agents[name] ?? {};
    if (!isObject(entry)) {
      readings.set(name, unreadable("the config's entry"));
      continue;
    }
    const keys = read.entries.map(([key]) => key);
    const twice = keys.find((key, i) => keys.indexOf(key) !== i && groupOf(key, "other") !== "benign");
    if (twice !== undefined) {
      readings.set(name, unreadable(`${twice} twice`));
      continue;
    }
    readings.set(name, readOpenCodeAgent(deepMerge(entry, Object.fromEntries(read.entries)), config));
  }
  if (!broken) {
    for (const [name, agent] of Object.entries(agents)) {
      if (readings.has(name) || !isObject(agent)) continue;
      readings.set(name, readOpenCodeAgent(agent, config));
    }
  }
  return readings;
}

function deepMerge(first: Record<string, unknown>, second: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...first };
  for (const [key, value] of Object.entries(second)) {
    const before = out[key];
    out[key] = isObject(before) && isObject(value) && !isUnparsed(value) ? deepMerge(before, value) : value;
  }
  return out;
}

/** OpenCode: an agent's entry for a permission replaces the file's; two pattern maps merge, the agent's last. */
function mergeMaps(base: Record<string, unknown>, own: Record<string, unknown>): Record<string, unknown> {
  const merged: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(own)) {
    const before = merged[key];
    merged[key] =
      isObject(before) && isObject(value)
        ? Object.fromEntries([
            ...Object.entries(before).filter(([p]) => !(p in value)),
            ...Object.entries(value),
          ])
        : value;
  }
  return merged;
}

/** A permission map in OpenCode's form (not Claude's allow/ask/deny lists). */
function isOpenCodeMap(value: unknown): value is Record<string, unknown> {
  return isObject(value) && !Object.values(value).some(Array.isArray);
}

// ------------------------------------------------------------------ meaning

interface Rule {
  permission: string;
  pattern: string;
  action: Action;
}

interface Limit {
  permission: string;
  /** undefined: denies the permission outright. */
  allows?: (value: string) => boolean;
}

/** Read-only commands among the probes (what the read-only allowlist lets through). */
const READ_ONLY_COMMANDS = new Set(["ls", "git status", "git diff HEAD", "cat .env"]);

function interpret(
  entries: Array<[string, unknown]>,
  maps: "opencode" | "strict-maps" | "codex",
  baseRules: Rule[] = [],
): Reading {
  const keyFormat = maps === "codex" ? "codex" : "other";
  let tools = new Set(POOL);
  let own: Rule[] = baseRules;
  const limits: Limit[] = [];
  const seen = new Set<Group>();
  let readOnlyBash = false;
  for (const [key, value] of entries) {
    const group = groupOf(key, keyFormat);
    if (group === "benign") continue;
    if (group === "restriction-like") return unreadable(`unknown restriction ${key}`);
    if (seen.has(group)) return unreadable(`${group} given twice`);
    seen.add(group);
    if (isUnparsed(value) && group !== "tools" && group !== "deny") return unreadable(`${key} unparsable`);
    switch (group) {
      case "tools": {
        if (maps === "codex") {
          if (isObject(value) && Object.keys(value).every((k) => ["web_search", "view_image"].includes(k)))
            break;
          return unreadable("codex tools");
        }
        const read = readTools(value, maps);
        if (read === undefined) return unreadable(`${key} value`);
        if (read.names !== "all")
          tools = new Set([...tools].filter((tool) => read.names !== "all" && read.names.has(tool)));
        for (const name of read.denied) tools.delete(name);
        limits.push(...read.limits);
        break;
      }
      case "deny": {
        const names = nameList(value, true);
        if (names === undefined) return unreadable(`${key} value`);
        for (const raw of names) {
          const { name } = splitSpec(raw);
          if (name.includes("*"))
            for (const tool of [...tools]) if (glob(name).test(tool)) tools.delete(tool);
          const tool = toolOf(name);
          if (tool !== undefined) tools.delete(tool);
        }
        break;
      }
      case "permission": {
        const rules = readPermission(value);
        if (rules === undefined) return unreadable(`${key} value`);
        own = [...baseRules, ...rules];
        break;
      }
      case "mode":
        if (value === "plan") limits.push(...readOnlyLimits(tools));
        else if (
          !["default", "acceptEdits", "bypassPermissions", "dontAsk", "accept-edits", "bypass"].includes(
            String(value),
          )
        )
          return unreadable("permissionMode value");
        break;
      case "sandbox":
        if (value === "read-only") limits.push(...readOnlyLimits(tools));
        else if (value !== "workspace-write" && value !== "danger-full-access")
          return unreadable("sandbox value");
        break;
      case "readonly": {
        const flag = bool(value);
        if (flag === undefined) return unreadable("readOnly value");
        if (flag) limits.push(...readOnlyLimits(tools));
        break;
      }
      case "readonlybash": {
        const flag = bool(value);
        if (flag === undefined) return unreadable("readOnlyBash value");
        readOnlyBash = flag;
        break;
      }
      case "disable": {
        const flag = bool(value);
        if (flag === undefined) return unreadable("disable value");
        if (flag) return unreadable("disabled");
        break;
      }
      case "workspace":
        break;
    }
  }
  // grep, glob, list and write ask another permission: rules under their names limit them or fail the file.
  for (const tool of ["grep", "glob", "list", "write"]) {
    if (!own.some((rule) => rule.permission === tool)) continue;
    const matching = own.filter((rule) => glob(rule.permission).test(tool));
    const lastDeny = matching.findLastIndex((rule) => rule.pattern === "*" && rule.action === "deny");
    if (lastDeny !== -1 && matching.slice(lastDeny + 1).every((rule) => rule.action === "deny")) {
      tools.delete(tool);
      continue;
    }
    const blanket = matching.findLastIndex((rule) => rule.pattern === "*");
    if (blanket === -1 || !matching.slice(blanket).every((rule) => rule.action === "allow"))
      return unreadable(`rules for ${tool} its tool cannot follow`);
  }
  const finalOwn = own;
  return {
    kind: "ceiling",
    tools,
    widest(probe) {
      const mine = lastMatch(finalOwn, probe);
      const mineLimits = limits.filter((limit) => limit.permission === probe.permission);
      if (mineLimits.length === 0) {
        // readOnlyBash is a default under the file's own rules, not a ceiling.
        if (mine === undefined && readOnlyBash && probe.permission === "bash")
          return READ_ONLY_COMMANDS.has(probe.value) ? "allow" : "deny";
        return mine ?? "ask";
      }
      if (mineLimits.some((limit) => limit.allows === undefined)) return "deny";
      if (!mineLimits.every((limit) => limit.allows?.(probe.value))) return "deny";
      return mine ?? "allow";
    },
  };
}

function readOnlyLimits(tools: Set<string>): Limit[] {
  tools.delete("write");
  tools.delete("edit");
  return [
    { permission: "edit" },
    { permission: "bash", allows: (command) => READ_ONLY_COMMANDS.has(command) },
  ];
}

function lastMatch(rules: readonly Rule[], probe: Probe): Action | undefined {
  let action: Action | undefined;
  for (const rule of rules) {
    if (glob(rule.permission).test(probe.permission) && patternMatches(rule.pattern, probe.value))
      action = rule.action;
  }
  return action;
}

function patternMatches(pattern: string, value: string): boolean {
  if (glob(pattern).test(value)) return true;
  return pattern.endsWith(" *") && glob(pattern.slice(0, -2)).test(value);
}

function glob(pattern: string): RegExp {
  const body = pattern
    .replace(/[.+^${}()|[\]\\]/g, "\\$&")
    .replace(/\*/g, ".*")
    .replace(/\?/g, ".");
  return new RegExp(`^${body}$`, "s");
}

// ------------------------------------------------------------------ tools

const TOOL_TABLE: Record<string, string> = {
  read: "read",
  read_file: "read",
  view: "read",
  bash: "bash",
  shell: "bash",
  write: "write",
  write_file: "write",
  edit: "edit",
  multiedit: "edit",
  apply_patch: "edit",
  grep: "grep",
  search: "grep",
  glob: "glob",
  find: "glob",
  ls: "list",
  list: "list",
  task: "task",
  agent: "task",
};

function toolOf(name: string): string | undefined {
  if (name === "mcp__github__create_issue") return name;
  return TOOL_TABLE[name.trim().toLowerCase()];
}

/** The permission a spec on a tool narrows. */
const SPEC_PERMISSION: Record<string, string> = {
  bash: "bash",
  read: "read",
  edit: "edit",
  write: "edit",
  task: "task",
};

function readTools(
  value: unknown,
  maps: "opencode" | "strict-maps",
): { names: Set<string> | "all"; denied: string[]; limits: Limit[] } | undefined {
  if (isObject(value) && !isUnparsed(value)) return readToolMap(value, maps);
  const names = nameList(value, false);
  if (names === undefined) return undefined;
  if (names.length === 1 && names[0] === "*") return { names: "all", denied: [], limits: [] };
  const granted = new Set<string>();
  const specs = new Map<string, string[]>();
  const bare = new Set<string>();
  for (const raw of names) {
    const { name, spec } = splitSpec(raw);
    const tool = toolOf(name);
    if (tool === undefined) continue;
    const permission = SPEC_PERMISSION[tool];
    if (spec === undefined) {
      granted.add(tool);
      if (permission !== undefined) bare.add(permission);
    } else if (permission !== undefined) {
      granted.add(tool);
      specs.set(permission, [
        ...(specs.get(permission) ?? []),
        ...(tool === "task" ? spec.split(",") : [spec]),
      ]);
    }
  }
  const limits: Limit[] = [];
  for (const [permission, patterns] of specs) {
    if (bare.has(permission)) continue;
    const prefixes = patterns.map((p) => p.trim().replace(/:\*$/, " *"));
    limits.push({ permission, allows: (value) => prefixes.some((p) => patternMatches(p, value)) });
  }
  return { names: granted, denied: [], limits };
}

function readToolMap(
  map: Record<string, unknown>,
  maps: "opencode" | "strict-maps",
): { names: Set<string> | "all"; denied: string[]; limits: Limit[] } | undefined {
  const flags = new Map<string, boolean>();
  for (const [name, raw] of Object.entries(map)) {
    const flag = bool(raw);
    if (flag === undefined) return undefined;
    flags.set(name, flag);
  }
  const star = flags.get("*");
  const trues = [...flags].filter(([name, on]) => on && name !== "*").map(([name]) => name);
  const falses = [...flags].filter(([name, on]) => !on && name !== "*").map(([name]) => name);
  const denied = falses.flatMap((name) =>
    name.includes("*") ? POOL.filter((tool) => glob(name).test(tool)) : [toolOf(name) ?? ""],
  );
  if (star === true || (star === undefined && trues.length === 0)) {
    if (star === undefined && maps !== "opencode") return undefined;
    return { names: "all", denied, limits: [] };
  }
  const names = new Set(trues.filter((name) => !name.includes("*")).flatMap((name) => toolOf(name) ?? []));
  return { names, denied, limits: [] };
}

function nameList(value: unknown, strict: boolean): string[] | undefined {
  if (value === null || value === undefined) return [];
  if (isUnparsed(value)) return [value.inline, ...value.items].flatMap(splitNames);
  if (typeof value === "string") return splitNames(value);
  if (Array.isArray(value)) {
    const out: string[] = [];
    // `[Read, Task(explore, plan)]` is split by YAML at each comma; the reference reads it whole.
    const joined: unknown[] = [];
    for (const item of value) {
      const last = joined.at(-1);
      if (typeof last === "string" && typeof item === "string" && unbalanced(last))
        joined[joined.length - 1] = `${last}, ${item}`;
      else joined.push(item);
    }
    for (const item of joined) {
      if (typeof item === "string") out.push(...splitNames(item));
      else if (strict) return undefined;
    }
    return out;
  }
  return undefined;
}

function unbalanced(text: string): boolean {
  return text.split("(").length > text.split(")").length;
}

function splitNames(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let current = "";
  for (const ch of text) {
    if (ch === "(") depth++;
    if (ch === ")") depth = Math.max(0, depth - 1);
    if (ch === "," && depth === 0) {
      out.push(current);
      current = "";
    } else current += ch;
  }
  out.push(current);
  return out
    .map((name) => name.trim().replace(/^["'[]+|["'\]]+$/g, ""))
    .flatMap((name) => (name.includes("(") ? [name] : name.split(/\s+/)))
    .filter((name) => name !== "");
}

function splitSpec(entry: string): { name: string; spec?: string } {
  const match = /^([^()]+)\((.*)\)$/.exec(entry.trim());
  return match === null
    ? { name: entry.trim() }
    : { name: (match[1] ?? "").trim(), spec: (match[2] ?? "").trim() };
}

// ------------------------------------------------------------------ permission

const ACTIONS = new Set(["allow", "ask", "deny"]);
const CLAUDE_TOOLS: Record<string, string> = {
  Bash: "bash",
  Read: "read",
  Grep: "read",
  Glob: "read",
  LS: "read",
  Edit: "edit",
  Write: "edit",
  MultiEdit: "edit",
  Task: "task",
  Agent: "task",
};

function readPermission(value: unknown): Rule[] | undefined {
  if (value === null) return [];
  if (typeof value === "string")
    return ACTIONS.has(value) ? [{ permission: "*", pattern: "*", action: value as Action }] : undefined;
  if (Array.isArray(value)) {
    const rules: Rule[] = [];
    for (const item of value) {
      if (!isObject(item)) return undefined;
      const keys = Object.keys(item).sort().join(",");
      const { permission, pattern, action } = item;
      if (keys !== "action,pattern,permission") return undefined;
      if (typeof permission !== "string" || typeof pattern !== "string" || typeof action !== "string")
        return undefined;
      if (!ACTIONS.has(action) || permission === "" || pattern === "") return undefined;
      rules.push({ permission, pattern, action: action as Action });
    }
    return rules;
  }
  if (!isObject(value)) return undefined;
  const lists = Object.entries(value).some(([key, item]) => ACTIONS.has(key) && Array.isArray(item));
  return lists ? readClaudeLists(value) : readOpenCodeMap(value);
}

function readClaudeLists(value: Record<string, unknown>): Rule[] | undefined {
  if (Object.keys(value).some((key) => !ACTIONS.has(key))) return undefined;
  const rules: Rule[] = [];
  for (const action of ["allow", "ask", "deny"] as const) {
    const list = value[action];
    if (list === undefined) continue;
    if (!Array.isArray(list)) return undefined;
    for (const entry of list) {
      if (typeof entry !== "string") return undefined;
      const { name, spec } = splitSpec(entry);
      const permission = CLAUDE_TOOLS[name];
      // Rules on permissions the probes do not ask (WebFetch) cannot change a probe's answer.
      if (permission === undefined) continue;
      const pattern =
        spec === undefined || spec === "" ? "*" : permission === "bash" ? spec.replace(/:\*$/, " *") : spec;
      rules.push({ permission, pattern, action });
    }
  }
  return rules;
}

function readOpenCodeMap(value: Record<string, unknown>): Rule[] | undefined {
  const rules: Rule[] = [];
  for (const [permission, item] of Object.entries(value)) {
    if (permission === "") return undefined;
    if (typeof item === "string") {
      if (!ACTIONS.has(item)) return undefined;
      rules.push({ permission, pattern: "*", action: item as Action });
    } else if (isObject(item)) {
      for (const [pattern, action] of Object.entries(item)) {
        if (typeof action !== "string" || !ACTIONS.has(action)) return undefined;
        rules.push({ permission, pattern: pattern === "" ? "*" : pattern, action: action as Action });
      }
    } else return undefined;
  }
  return rules;
}

// ------------------------------------------------------------------ helpers

function bool(value: unknown): boolean | undefined {
  if (typeof value === "boolean") return value;
  if (typeof value !== "string") return undefined;
  const text = value.trim().toLowerCase();
  if (["true", "yes", "on"].includes(text)) return true;
  if (["false", "no", "off"].includes(text)) return false;
  return undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isUnparsed(value: unknown): value is Unparsed {
  return isObject(value) && value.unparsed === true;
}
