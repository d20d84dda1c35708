import { rulesetFromConfig } from "../../permissions/ruleset-from-config.ts";
import type { PermissionAction } from "../../permissions/types.ts";
import { classifyToolName, type ToolNameKind } from "../../tools/tool-names.ts";
import type { AgentPermissionConfig, PermissionMap } from "../definition.ts";
import type { Draft, KeyHandler, LoadContext } from "./load-context.ts";
import { mayNameOpenCodeMcpTools, openCodeMcpPattern } from "./opencode-mcp-names.ts";
import { readBoolean } from "./restriction-keys.ts";
import { MAX_TOOL_ENTRIES } from "./size-limits.ts";
import { readNameList, splitSpec } from "./tool-name-list.ts";

/**
 * Reads `tools` in every shape agent files use — `Read, Grep`, a YAML list, `[]`, an OpenCode boolean
 * map — and Claude's argument forms (`Bash(git diff:*)`, `Task(explore, plan)`), which become permission
 * rules. The one rule: nothing we fail to understand may grant more than the author wrote.
 */

/** The permission key a tool's argument pattern restricts (`write` is governed by `edit`). */
const PATTERN_PERMISSION: Readonly<Record<string, string>> = {
  bash: "bash",
  read: "read",
  edit: "edit",
  write: "edit",
  task: "task",
};

/** How a `tools` map that only switches tools off is read. */
export type FalseOnlyMaps =
  /** OpenCode: `{ write: false }` = the parent's tools minus `write`. */
  | "inherit-minus"
  /** Claude Code and agentry have no tools maps; "everything but write" is not a reading we guess. */
  | "error";

/** `tools` in every shape. `falseOnlyMaps` says how a map of only `false` entries is read. */
export function toolsHandler(falseOnlyMaps: FalseOnlyMaps): KeyHandler {
  return (value, draft, ctx, key) => applyTools(value, draft, ctx, key, falseOnlyMaps);
}

function applyTools(
  value: unknown,
  draft: Draft,
  ctx: LoadContext,
  key: string,
  falseOnlyMaps: FalseOnlyMaps,
): void {
  if (isPlainObject(value)) {
    applyToolMap(value, draft, ctx, key, falseOnlyMaps);
    return;
  }
  const names = readNameList(value, key, ctx, false);
  if (names === undefined) return;
  if (names.length === 1 && names[0] === "*") return; // explicit "all": same as leaving `tools` out
  if (names.length === 0) {
    if (value === null || (typeof value === "string" && value.trim() === ""))
      ctx.report("warning", `${key} is empty`, "gave the agent no tools (remove the key to inherit)", key);
    draft.tools = [];
    return;
  }
  const tools: string[] = [];
  const specs = new Map<string, string[]>();
  for (const entry of names) {
    const { name, spec } = splitSpec(entry);
    const kind = classifyToolName(name);
    if (!grantable(kind, entry, ctx, key)) continue;
    if (spec !== undefined) {
      if (PATTERN_PERMISSION[kind.name] === undefined) {
        ctx.report(
          "warning",
          `cannot restrict ${name} by argument ("${entry}")`,
          `dropped tool ${entry}`,
          key,
        );
        continue;
      }
      specs.set(kind.name, [...(specs.get(kind.name) ?? []), spec]);
    }
    if (!tools.includes(kind.name)) tools.push(kind.name);
  }
  if (tools.length === 0) {
    ctx.report("warning", "none of the listed tools exist in agentry", "gave the agent no tools", key);
  }
  draft.tools = tools;
  const derived = rulesFromSpecs(specs, names);
  if (derived !== undefined) draft.limits = [...(draft.limits ?? []), { key, rules: derived }];
}

export const applyDisallowedTools: KeyHandler = (value, draft, ctx, key) => {
  const names = readNameList(value, key, ctx, true);
  if (names === undefined) return;
  const removed: string[] = [];
  for (const entry of names) {
    const { name, spec } = splitSpec(entry);
    if (spec !== undefined) {
      // Denying part of a tool is narrower than denying it all; denying it all is the safe reading.
      ctx.report("info", `${key} cannot deny part of a tool ("${entry}")`, `denied all of ${name}`, key);
    }
    const denied = deniedTool(name);
    if (denied !== undefined) removed.push(denied);
    else if (/^[\w.*-]*\*[\w.*-]*$/.test(name))
      removed.push(name); // a glob (`*`, `mcp__github__*`)
    else {
      // A mangled entry (`["list", "Write"]` after a damaged line) may still name tools: deny those.
      const named = toolsNamedIn(entry);
      if (named.length > 0) {
        ctx.report(
          "warning",
          `${key} entry "${entry}" is not one tool name`,
          `denied ${named.join(", ")}`,
          key,
        );
        removed.push(...named);
      } else ctx.report("info", `${key} names ${name}, which agentry does not have`, `ignored ${name}`, key);
    }
  }
  draft.disallowedTools = unique([...(draft.disallowedTools ?? []), ...removed]);
};

/** An MCP tool's whole name; `mcp__github__delete_repository(x, Write` is not one. */
const MCP_NAME = /^mcp__[\w.-]+$/;

/**
 * What denying `name` takes away when it names one tool: an agentry tool, an MCP tool, or every tool
 * of an MCP server named alone (`mcp__github`, as Claude Code's rules read it), which would otherwise
 * match no tool and deny nothing. Undefined for anything else.
 */
function deniedTool(name: string): string | undefined {
  const kind = classifyToolName(name);
  if (kind.kind === "canonical") return kind.name;
  if (kind.kind !== "mcp" || !MCP_NAME.test(kind.name)) return undefined;
  const server = kind.name.replace(/__$/, "");
  return server.split("__").length === 2 ? `${server}__*` : kind.name;
}

/** The tools a stretch of text names, word by word (`Bash(npm test)` → bash). */
function toolsNamedIn(text: string): string[] {
  // A lone `*` among the words denies everything, as `*` does on its own.
  if (/(^|[\s,[\]"'])\*($|[\s,[\]"'])/.test(text)) return ["*"];
  const names: string[] = [];
  // An MCP name is one word with its `-` and `.` (`mcp__my-server__drop.all`).
  for (const word of text.match(/mcp__[\w.-]*\w|\w+/g) ?? []) {
    const denied = deniedTool(word);
    if (denied !== undefined) names.push(denied);
  }
  return unique(names);
}

/**
 * A boolean map, read so that it never gives more than it names:
 * - `{ "*": false, read: true }` → only the trues;
 * - `{ read: true, grep: true }` → only the trues too (OpenCode would keep every other tool on, but an
 *   author who lists what to switch on means a list; a warning says so);
 * - `{ "*": true, write: false }` → the parent's tools minus the falses;
 * - `{ write: false }` → minus the falses in OpenCode files, an error elsewhere (see `FalseOnlyMaps`).
 * `"true"`/`"false"` strings count as booleans; any other value fails the file.
 */
function applyToolMap(
  map: Record<string, unknown>,
  draft: Draft,
  ctx: LoadContext,
  key: string,
  falseOnlyMaps: FalseOnlyMaps,
): void {
  const entries: Array<[string, boolean]> = [];
  const bad: string[] = [];
  for (const [name, raw] of Object.entries(map)) {
    const flag = readBoolean(raw);
    if (flag === undefined) bad.push(name);
    else entries.push([name, flag]);
  }
  if (bad.length > 0) {
    ctx.fail(`${key} map values must be true or false (${bad.slice(0, 5).join(", ")} is not)`, key);
    return;
  }
  if (entries.length > MAX_TOOL_ENTRIES) {
    ctx.fail(`${key} has ${entries.length} entries; at most ${MAX_TOOL_ENTRIES} are read`, key);
    return;
  }
  const star = entries.find(([name]) => name === "*")?.[1];
  const anyTrue = entries.some(([name, enabled]) => name !== "*" && enabled);
  if (star === undefined && !anyTrue && falseOnlyMaps === "error") {
    ctx.fail(
      `${key} only switches tools off, which would give the agent every other tool its parent has; list the tools it may use, or use disallowedTools`,
      key,
    );
    return;
  }
  const onlyTrues = star === false || (star === undefined && anyTrue);
  if (onlyTrues && star === undefined) {
    ctx.report(
      "warning",
      `${key} switches tools on without "*": false`,
      'gave the agent only the tools set true (add "*": true to keep the others)',
      key,
    );
  }
  const tools: string[] = [];
  const disallowed: string[] = [];
  for (const [name, enabled] of entries) {
    if (name === "*") continue;
    const kind = classifyToolName(name);
    if (enabled && onlyTrues) {
      if (name.includes("*")) {
        ctx.report("warning", `tool patterns cannot be granted ("${name}")`, `dropped tool ${name}`, key);
      } else if (grantable(kind, name, ctx, key)) {
        tools.push(kind.name);
      }
    } else if (!enabled) {
      const denied = deniedTool(name);
      if (denied !== undefined) disallowed.push(denied);
      else if (mayNameOpenCodeMcpTools(name)) {
        const pattern = openCodeMcpPattern(name);
        disallowed.push(...(name.includes("*") ? [name] : []), pattern);
        ctx.report(
          "info",
          `${key} turns off ${name}, OpenCode's name for MCP tools`,
          `denied ${pattern} (agentry's name for them)`,
          key,
        );
      } else if (name.includes("*")) disallowed.push(name);
      else
        ctx.report("info", `${key} turns off ${name}, which agentry does not have`, `ignored ${name}`, key);
    }
  }
  if (onlyTrues) {
    if (tools.length === 0)
      ctx.report("warning", `the ${key} map enables no tool agentry has`, "gave the agent no tools", key);
    draft.tools = unique(tools);
  }
  if (disallowed.length > 0)
    draft.disallowedTools = unique([...(draft.disallowedTools ?? []), ...disallowed]);
}

function grantable(
  kind: ToolNameKind,
  entry: string,
  ctx: LoadContext,
  key: string,
): kind is ToolNameKind & { kind: "canonical" | "mcp" } {
  if (kind.kind === "canonical" || kind.kind === "mcp") return true;
  if (kind.kind === "unsupported") {
    ctx.report("info", `agentry has no ${kind.name} tool`, `dropped tool ${entry}`, key);
  } else {
    ctx.report("warning", `unknown tool ${kind.name}`, `dropped unknown tool ${entry}`, key);
  }
  return false;
}

/** Claude's `Bash(npm run test:*)` means the prefix `npm run test`; `Task(a, b)` lists callable agents. */
function rulesFromSpecs(specs: Map<string, string[]>, names: readonly string[]): PermissionMap | undefined {
  const map: PermissionMap = {};
  for (const [tool, patterns] of specs) {
    const key = PATTERN_PERMISSION[tool] ?? tool;
    // A bare `Bash` next to `Bash(git *)` grants all of bash, as in Claude Code (`Edit` covers `Write(…)`).
    const bare = (n: string): boolean =>
      !n.includes("(") && PATTERN_PERMISSION[classifyToolName(n).name] === key;
    if (names.some(bare)) continue;
    const existing = map[key];
    const rules: Record<string, PermissionAction> = typeof existing === "object" ? { ...existing } : {};
    if (rules["*"] === undefined) rules["*"] = "deny";
    for (const spec of patterns) {
      const parts = tool === "task" ? spec.split(",") : [spec];
      for (const part of parts) {
        // `git diff:*` (Claude's prefix form) becomes `git diff *`, which also matches bare `git diff`.
        // A leading `./` stays: the rules read it off paths (`./src/**`), and `./gradlew` is a command.
        const pattern = part.trim().replace(/:\*$/, " *");
        if (pattern !== "") rules[pattern] = "allow";
      }
    }
    map[key] = rules;
  }
  return Object.keys(map).length > 0 ? map : undefined;
}

/**
 * `first`'s rules, then `second`'s, so `second` wins where both match (the last matching rule wins).
 * Two OpenCode maps stay a readable map; any other pair becomes one flat ruleset.
 */
export function mergePermission(
  first: AgentPermissionConfig,
  second: AgentPermissionConfig,
): AgentPermissionConfig {
  if (!isOpenCodeMap(first) || !isOpenCodeMap(second))
    return [...rulesetFromConfig(first), ...rulesetFromConfig(second)];
  const merged: PermissionMap = { ...first };
  for (const [key, value] of Object.entries(second)) {
    const before = merged[key];
    // Rebuilt rather than spread so the second map's rules keep their place after the first's.
    merged[key] =
      typeof before === "object" && typeof value === "object"
        ? Object.fromEntries([
            ...Object.entries(before).filter(([p]) => !(p in value)),
            ...Object.entries(value),
          ])
        : value;
  }
  return merged;
}

function isOpenCodeMap(config: AgentPermissionConfig): config is PermissionMap {
  if (typeof config !== "object" || Array.isArray(config)) return false;
  return !Object.values(config).some((value) => Array.isArray(value));
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function unique(values: string[]): string[] {
  return [...new Set(values)];
}
