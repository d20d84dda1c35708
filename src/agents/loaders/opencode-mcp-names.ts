import { classifyToolName } from "../../tools/tool-names.ts";

/** OpenCode's own permission names that agentry's tool names do not cover. */
const OPENCODE_PERMISSIONS: ReadonlySet<string> = new Set([
  "external_directory",
  "doom_loop",
  "list",
  "lsp",
  "codesearch",
  "question",
  "todoread",
]);

/**
 * Whether a tool or permission key of an OpenCode config may name MCP tools. OpenCode names them
 * `<server>_<tool>` and matches its keys as globs, so `github_*`, `github_delete_repository` and
 * `my-mcp*` all do; a built-in name (`bash`, `external_directory`) or agentry's own `mcp__…` does not.
 */
export function mayNameOpenCodeMcpTools(name: string): boolean {
  const key = name.trim();
  if (key === "*" || key.startsWith("mcp__") || OPENCODE_PERMISSIONS.has(key.toLowerCase())) return false;
  return classifyToolName(key).kind === "unknown" && (key.includes("_") || key.includes("*"));
}

/**
 * The agentry name of the MCP tools an OpenCode name means. OpenCode names them `<server>_<tool>`
 * (`github_*` is every tool of the github server), agentry `mcp__<server>__<tool>`, so the name as
 * written matches none of them. Any `_` may be the one between server and tool: each stands for one
 * or more characters (`github_delete_repository` → `mcp__github_*delete_*repository`).
 */
export function openCodeMcpPattern(name: string): string {
  return `mcp__${name.trim().replace(/_/g, "_*").replace(/\*+/g, "*")}`;
}

/**
 * An OpenCode `permission` map with agentry's name of the MCP tools beside each key that may name
 * some (`"github_*": "deny"` gains `"mcp__github_*": "deny"`), right after it, so that the order of
 * the rules, in which the last match wins, is kept. A key agentry's name is already given for keeps
 * the value written under that name. Anything but a map is returned as it is.
 */
export function withAgentryMcpNames(value: unknown): { value: unknown; mirrored: Array<[string, string]> } {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return { value, mirrored: [] };
  const map = value as Record<string, unknown>;
  const result: Record<string, unknown> = {};
  const mirrored: Array<[string, string]> = [];
  for (const [key, rule] of Object.entries(map)) {
    result[key] = rule;
    if (!mayNameOpenCodeMcpTools(key)) continue;
    const name = openCodeMcpPattern(key);
    if (Object.hasOwn(map, name)) continue;
    delete result[name]; // mirrored from an earlier key already: its place is now after this one
    result[name] = rule;
    mirrored.push([key, name]);
  }
  return { value: result, mirrored };
}
