import type { Prng } from "./prng.ts";

/**
 * Random agent files for the fuzz test: real keys in every harness's spelling, restriction-like keys
 * agentry does not know, values of every type, then YAML/TOML/JSON damage. The generator knows nothing
 * of how files are read; the reference reading and the loaders each read the text it produces.
 */

export type FuzzFormat =
  | "claude"
  | "opencode"
  | "agentry"
  | "agentscope"
  | "codex"
  | "opencode-config"
  | "codex-config"
  | "opencode-level";

export const FUZZ_FORMATS: readonly FuzzFormat[] = [
  "claude",
  "opencode",
  "agentry",
  "agentscope",
  "codex",
  "opencode-config",
  "codex-config",
  "opencode-level",
];

export interface FuzzFile {
  format: FuzzFormat;
  text: string;
  /** `codex-config`: the text of every role's `config_file`, by its path as written. */
  roleFiles?: Record<string, string>;
  /**
   * `opencode-level`: an opencode.json (`text`) and agent Markdown files beside it, by agent name,
   * some of them named like the config's agents (OpenCode merges those).
   */
  markdown?: Record<string, string>;
}

type Value = string | number | boolean | null | Value[] | { [key: string]: Value };
type Entry = [string, Value];

const TOOL_NAMES = [
  "Read",
  "read",
  "Write",
  "Edit",
  "MultiEdit",
  "Bash",
  "bash",
  "Grep",
  "Glob",
  "LS",
  "list",
  "Task",
  "WebFetch",
  "TodoWrite",
  "read_file",
  "shell",
  "apply_patch",
  "mcp__github__create_issue",
  "Frobnicate",
  "Bash(git diff:*)",
  "Bash(npm test)",
  "Bash(git *)",
  "Task(explore, plan)",
  "Edit(docs/**)",
  "Read(src/**)",
  "Grep(foo)",
  "*",
];
// grep, glob, list and write ask another permission here (issue 21): rules under their names must limit them.
const PERMISSIONS = ["edit", "bash", "read", "task", "webfetch", "*", "grep", "glob", "list", "write"];
const PATTERNS = ["*", "git *", "git diff*", "docs/**", "src/**", "rm *", ".env", "ls", "explore"];
const ACTIONS = ["allow", "ask", "deny", "allow", "deny", "sometimes"];
const CLAUDE_RULES = [
  "Bash",
  "Bash(git diff:*)",
  "Edit",
  "Write",
  "Read(src/**)",
  "Read",
  "WebFetch",
  "Task(explore)",
];

const TOOLS_KEYS = [
  "tools",
  "tools",
  "tools",
  "Tools",
  "tool",
  "allowed-tools",
  "allowedTools",
  "allowed_tools",
  "enabled_tools",
];
const DENY_KEYS = ["disallowedTools", "disallowedTools", "disallowed-tools", "deniedTools", "disabledTools"];
const PERMISSION_KEYS = ["permission", "permission", "permissions"];
const UNKNOWN_RESTRICTIONS = [
  "deniedCommands",
  "tool_policy",
  "allowedPaths",
  "write",
  "bash",
  "Read",
  "canAccessNetwork",
  "blockedDomains",
  "restrictions",
  "excludeTools",
  "access",
  "shellPolicy",
  // Restriction keys in letters of other scripts (issue 21): a Cyrillic о and і, fullwidth letters.
  "tоols",
  "permіssion",
  "ｔｏｏｌｓ",
];

/** Claude Code plugin agents' `capabilities`: words about the agent, or (crafted) tool names and maps. */
function capabilitiesValue(prng: Prng): Value {
  return prng.pick<Value>([
    ["defense_eval", "security_assessment"],
    "code-review, system-architecture",
    ["Read", "Grep"],
    [{ network_access: "none" }],
    ["shell"],
    [],
  ]);
}

function words(prng: Prng, count: number): string {
  const pool = [
    "reviews",
    "code",
    "quickly",
    "the",
    "agent",
    "writes",
    "tests",
    "docs",
    "finds",
    "bugs",
    "x",
  ];
  return Array.from({ length: count }, () => prng.pick(pool)).join(" ");
}

function junk(prng: Prng, depth = 0): Value {
  const kind = prng.int(0, depth > 2 ? 4 : 7);
  if (kind === 0) return words(prng, prng.int(0, 3));
  if (kind === 1) return prng.int(-3, 300);
  if (kind === 2) return prng.chance(0.5);
  if (kind === 3) return null;
  if (kind === 4) return prng.pick(["true", "false", "yes", "no", "maybe", "", "read-only", "*"]);
  if (kind === 5) return Array.from({ length: prng.int(0, 3) }, () => junk(prng, depth + 1));
  const out: { [key: string]: Value } = {};
  for (let i = prng.int(0, 3); i > 0; i--)
    out[prng.pick(["a", "read", "edit", "x", "*"])] = junk(prng, depth + 1);
  return out;
}

function flag(prng: Prng): Value {
  return prng.pick<Value>([true, false, "true", "false", "yes", "no", "maybe", 1, null]);
}

function toolsValue(prng: Prng): Value {
  const names = () => prng.some(TOOL_NAMES, 5);
  const kind = prng.int(0, 11);
  if (kind <= 2) return names().join(prng.pick([", ", ",", " "]));
  if (kind <= 5) return names();
  if (kind === 6) {
    const map: { [key: string]: Value } = {};
    if (prng.chance(0.4)) map["*"] = prng.chance(0.5);
    for (const name of prng.some(["read", "write", "edit", "bash", "grep", "Read", "webfetch", "mymcp_*"], 4))
      map[name] = prng.chance(0.85) ? prng.chance(0.5) : flag(prng);
    return map;
  }
  if (kind === 7) return prng.pick<Value>([[], null, "", "*", "none"]);
  if (kind === 8 && prng.chance(0.05)) return Array.from({ length: 300 }, (_, i) => `Tool${i}`);
  if (kind === 9) return [...names(), junk(prng)];
  return junk(prng);
}

function permissionValue(prng: Prng): Value {
  const kind = prng.int(0, 9);
  if (kind === 0) return prng.pick(ACTIONS);
  if (kind <= 4) {
    const map: { [key: string]: Value } = {};
    for (const permission of prng.some(PERMISSIONS, 3)) {
      if (prng.chance(0.4)) map[permission] = prng.pick(ACTIONS);
      else {
        const patterns: { [key: string]: Value } = {};
        for (const pattern of prng.some(PATTERNS, 3)) patterns[pattern] = prng.pick(ACTIONS);
        map[permission] = patterns;
      }
    }
    return map;
  }
  if (kind <= 6) {
    return Array.from({ length: prng.int(0, 3) }, () => {
      const rule: { [key: string]: Value } = {
        permission: prng.pick(PERMISSIONS),
        pattern: prng.pick(PATTERNS),
        action: prng.pick(ACTIONS),
      };
      if (prng.chance(0.1)) rule.extra = "x";
      if (prng.chance(0.1)) delete rule.pattern;
      return rule;
    });
  }
  if (kind <= 8) {
    const lists: { [key: string]: Value } = {};
    for (const action of prng.some(["allow", "ask", "deny"], 3)) lists[action] = prng.some(CLAUDE_RULES, 3);
    if (prng.chance(0.1)) lists.allow = [prng.int(0, 9)];
    return lists;
  }
  return junk(prng);
}

/** One key and a value of the kind that key takes (sometimes of the wrong kind). */
function entry(prng: Prng, format: FuzzFormat): Entry {
  const roll = prng.int(0, 99);
  if (roll < 22) return [prng.pick(TOOLS_KEYS), toolsValue(prng)];
  if (roll < 30) return [prng.pick(DENY_KEYS), prng.chance(0.8) ? prng.some(TOOL_NAMES, 3) : junk(prng)];
  if (roll < 45) return [prng.pick(PERMISSION_KEYS), permissionValue(prng)];
  if (roll < 50)
    return [
      "permissionMode",
      prng.pick<Value>(["default", "acceptEdits", "plan", "dontAsk", "bypassPermissions", "sometimes"]),
    ];
  if (roll < 56)
    return [
      prng.pick(["sandbox_mode", "sandbox", "sandboxMode"]),
      prng.pick<Value>(["read-only", "workspace-write", "danger-full-access", "locked", true]),
    ];
  if (roll < 61)
    return [prng.pick(["readOnly", "read-only", "readOnlyBash", "disable", "disabled"]), flag(prng)];
  if (roll < 66) return [prng.pick(UNKNOWN_RESTRICTIONS), junk(prng)];
  if (roll < 70 && format === "codex")
    return prng.chance(0.5)
      ? ["sandbox_workspace_write", { network_access: prng.chance(0.5) }]
      : ["tools", { web_search: true }];
  const benign: Array<() => Entry> = [
    () => [
      "model",
      prng.pick([
        "sonnet",
        "inherit",
        "anthropic/claude-sonnet-4-5",
        "google/gemini-2.5-pro",
        "gpt-5",
        "fable",
      ]),
    ],
    () => ["color", prng.pick(["blue", "red"])],
    () => ["mode", prng.pick(["subagent", "primary", "all", "weird"])],
    () => ["temperature", prng.pick<Value>([0.2, 3, "hot"])],
    () => ["maxTurns", prng.pick<Value>([5, 0, "12"])],
    () => ["hidden", flag(prng)],
    () => ["background", flag(prng)],
    () => ["mcpServers", prng.pick<Value>([["notes"], "notes", { notes: { command: "notes-server" } }])],
    () => [prng.pick(["skills", "memory", "effort", "hooks", "notes", "favouriteFood"]), junk(prng)],
    () => [prng.pick(["capabilities", "Capabilities"]), capabilitiesValue(prng)],
  ];
  return prng.pick(benign)();
}

function entries(prng: Prng, format: FuzzFormat): Entry[] {
  const out: Entry[] = [];
  if (prng.chance(0.7)) out.push(["name", prng.pick(["fuzzy", "fuzz-agent", "Fuzz Agent", "x"])]);
  if (prng.chance(0.95))
    out.push([
      "description",
      prng.chance(0.25) ? `Use when: ${words(prng, 3)}` : words(prng, prng.int(1, 6)),
    ]);
  for (let i = prng.int(0, 5); i > 0; i--) out.push(entry(prng, format));
  if (prng.chance(0.05) && out.length > 0) out.push(prng.pick(out)); // a key twice
  return out;
}

export function generateAgentFile(prng: Prng): FuzzFile {
  const format = prng.pick(FUZZ_FORMATS);
  if (format === "codex")
    return { format, text: damage(prng, toml(prng, withPrompt(prng, entries(prng, format))), "toml") };
  if (format === "opencode-config") return { format, text: damage(prng, openCodeConfig(prng), "json") };
  if (format === "codex-config") return codexConfig(prng);
  if (format === "opencode-level") return openCodeLevel(prng);
  return { format, text: damage(prng, markdown(prng, entries(prng, format)), "yaml") };
}

/** An opencode.json and agent files beside it, some of the same names as its agents. */
function openCodeLevel(prng: Prng): FuzzFile {
  const text = damage(prng, openCodeConfig(prng), "json");
  const names = ["reviewer", "docs", "helper", "reviewer1", "docs2"];
  const files: Record<string, string> = {};
  for (const name of prng.some(names, 3)) {
    const list = entries(prng, "opencode").filter(([key]) => key !== "name");
    // Half of them leave the description to the config, which OpenCode merges in.
    const kept = prng.chance(0.5) ? list.filter(([key]) => key !== "description") : list;
    files[name] = damage(prng, markdown(prng, kept), "yaml");
  }
  return { format: "opencode-level", text, markdown: files };
}

function withPrompt(prng: Prng, list: Entry[]): Entry[] {
  return prng.chance(0.8) ? [...list, ["developer_instructions", words(prng, 4)]] : list;
}

// ---------------------------------------------------------------- YAML

function markdown(prng: Prng, list: Entry[]): string {
  const lines = list.flatMap(([key, value]) => yamlEntry(prng, key, value));
  // YAML's document end among the keys (issue 21): YAML reads none of the keys after it.
  if (prng.chance(0.06)) lines.splice(prng.int(0, lines.length), 0, "...");
  return `---\n${lines.join("\n")}\n---\n${prng.chance(0.9) ? words(prng, 5) : ""}\n`;
}

function yamlKey(prng: Prng, key: string): string {
  const roll = prng.int(0, 19);
  if (roll === 0) return JSON.stringify(key);
  if (roll === 1) return `'${key}'`;
  return key;
}

function yamlEntry(prng: Prng, key: string, value: Value): string[] {
  const head = `${yamlKey(prng, key)}:`;
  if (Array.isArray(value) && value.length > 0 && prng.chance(0.5)) {
    const dash = prng.chance(0.8) ? "  - " : "- ";
    return [head, ...value.map((item) => `${dash}${yamlInline(prng, item)}`)];
  }
  if (isMap(value) && Object.keys(value).length > 0 && prng.chance(0.6)) {
    return [head, ...yamlBlockMap(prng, value, "  ")];
  }
  if (typeof value === "string" && value.includes(" ") && prng.chance(0.15)) {
    return [`${head} ${prng.pick(["|", ">", ">-"])}`, `  ${value}`];
  }
  return [`${head} ${yamlInline(prng, value)}`];
}

function yamlBlockMap(prng: Prng, map: { [key: string]: Value }, indent: string): string[] {
  return Object.entries(map).flatMap(([key, value]) => {
    const k = /^[\w-]+$/.test(key) && prng.chance(0.7) ? key : JSON.stringify(key);
    if (isMap(value) && Object.keys(value).length > 0 && prng.chance(0.7))
      return [`${indent}${k}:`, ...yamlBlockMap(prng, value, `${indent}  `)];
    return [`${indent}${k}: ${yamlInline(prng, value)}`];
  });
}

function yamlInline(prng: Prng, value: Value): string {
  if (value === null) return prng.pick(["null", "~", ""]);
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (typeof value === "string") {
    const roll = prng.int(0, 9);
    if (roll < 6 && /^[\w*(][\w ,*:()./-]*$/.test(value)) return value;
    if (roll < 8) return JSON.stringify(value);
    return `'${value.replace(/'/g, "''")}'`;
  }
  if (Array.isArray(value)) return `[${value.map((item) => yamlInline(prng, item)).join(", ")}]`;
  const inner = Object.entries(value).map(([k, v]) => `${JSON.stringify(k)}: ${yamlInline(prng, v)}`);
  return `{ ${inner.join(", ")} }`;
}

// ---------------------------------------------------------------- TOML

function toml(prng: Prng, list: Entry[]): string {
  const top: string[] = [];
  const tables: string[] = [];
  for (const [key, value] of list) {
    const k = /^[\w-]+$/.test(key) ? key : JSON.stringify(key);
    if (isMap(value) && prng.chance(0.5)) {
      tables.push(
        `[${k}]`,
        ...Object.entries(value).map(([sub, v]) => `${JSON.stringify(sub)} = ${tomlValue(prng, v)}`),
      );
    } else top.push(`${k} = ${tomlValue(prng, value)}`);
  }
  return `${[...top, ...tables].join("\n")}\n`;
}

function tomlValue(prng: Prng, value: Value): string {
  if (value === null) return '""';
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (typeof value === "string")
    return prng.chance(0.8) ? JSON.stringify(value) : `'${value.replace(/'/g, "")}'`;
  if (Array.isArray(value)) return `[${value.map((item) => tomlValue(prng, item)).join(", ")}]`;
  return `{ ${Object.entries(value)
    .map(([k, v]) => `${JSON.stringify(k)} = ${tomlValue(prng, v)}`)
    .join(", ")} }`;
}

function codexConfig(prng: Prng): FuzzFile {
  const lines = ['model = "gpt-5.5"', "[agents]", "max_threads = 3"];
  const roleFiles: Record<string, string> = {};
  for (let i = prng.int(1, 3); i > 0; i--) {
    const name = prng.pick(["reviewer", "helper", "auditor"]);
    lines.push(`[agents.${name}${i}]`);
    if (prng.chance(0.8)) lines.push(`description = ${JSON.stringify(words(prng, 3))}`);
    if (prng.chance(0.7)) {
      const file = `agents/${name}${i}.toml`;
      lines.push(`config_file = ${JSON.stringify(file)}`);
      roleFiles[file] = damage(prng, toml(prng, withPrompt(prng, entries(prng, "codex"))), "toml");
    }
    if (prng.chance(0.1)) lines.push(`${prng.pick(["sandbox_mode", "tools", "color"])} = "read-only"`);
  }
  return { format: "codex-config", text: damage(prng, `${lines.join("\n")}\n`, "toml"), roleFiles };
}

// ---------------------------------------------------------------- JSON

function openCodeConfig(prng: Prng): string {
  const config: { [key: string]: Value } = { $schema: "https://opencode.ai/config.json" };
  if (prng.chance(0.2)) config.permission = permissionValue(prng);
  if (prng.chance(0.15)) config.tools = { [prng.pick(["bash", "write", "read"])]: prng.chance(0.5) };
  const agents: { [key: string]: Value } = {};
  for (let i = prng.int(0, 3); i > 0; i--) {
    const agent: { [key: string]: Value } = {};
    for (const [key, value] of entries(prng, "opencode-config")) if (key !== "name") agent[key] = value;
    if (prng.chance(0.5)) agent.prompt = words(prng, 4);
    agents[prng.pick(["reviewer", "docs", "build", "helper"]) + (prng.chance(0.5) ? "" : String(i))] = agent;
  }
  config.agent = prng.chance(0.95) ? agents : junk(prng);
  const text = JSON.stringify(config, null, prng.chance(0.5) ? 2 : undefined);
  return prng.chance(0.2) ? `// project config\n${text.replace(/\n}$/, ",\n}")}` : text;
}

// ---------------------------------------------------------------- damage

const STRAY_LINES = [
  // YAML's document end: what follows it is not read (issue 21).
  "...",
  "  tools: Read",
  "tools: Bash",
  '"tools": Read, Grep',
  "'permissions': { edit: allow }",
  "- Bash",
  "permissions:",
  "   edit: allow",
  "Tools Read, Grep",
  "junk line without a key",
  "\t",
  "disable: true",
  "sandbox = 'read-only'",
  '"permission": "allow",',
];

function damage(prng: Prng, text: string, kind: "yaml" | "toml" | "json"): string {
  if (!prng.chance(0.4)) return text;
  let out = text;
  for (let n = prng.int(1, 3); n > 0; n--) {
    const lines = out.split("\n");
    const at = prng.int(kind === "yaml" ? 1 : 0, Math.max(0, lines.length - 2));
    const op = prng.int(0, 9);
    if (op === 0) lines.splice(at, 0, prng.pick(STRAY_LINES));
    else if (op === 1) lines.splice(at, 0, lines[at] ?? "");
    else if (op === 2) {
      const other = prng.int(0, lines.length - 1);
      [lines[at], lines[other]] = [lines[other] ?? "", lines[at] ?? ""];
    } else if (op === 3) lines[at] = prng.chance(0.5) ? `  ${lines[at]}` : (lines[at] ?? "").trimStart();
    else if (op === 4) {
      const line = lines[at] ?? "";
      const cut = prng.int(0, line.length);
      lines[at] = line.slice(0, cut) + line.slice(cut + 1);
    } else if (op === 5) lines[at] = `${lines[at]}${prng.pick([": x", " #", "'", '"', "]", "}", ","])}`;
    else if (op === 6) lines.splice(at, 1);
    else if (op === 7 && kind === "yaml") {
      const close = lines.lastIndexOf("---");
      if (close > 0) lines.splice(close, 1);
    } else if (op === 8) return lines.join("\n").slice(0, prng.int(0, out.length));
    else lines[at] = (lines[at] ?? "").replace(":", ": weird: ");
    out = lines.join("\n");
  }
  if (prng.chance(0.05)) out = `\uFEFF${out.replace(/\n/g, "\r\n")}`;
  return out;
}

function isMap(value: Value): value is { [key: string]: Value } {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
