import { classifyToolName } from "../../tools/tool-names.ts";

/** OpenCode's own permission names with an underscore, which no MCP tool name is. */
const OPENCODE_PERMISSIONS: ReadonlySet<string> = new Set(["external_directory", "doom_loop"]);

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
 * An OpenCode `permission` with agentry's name of the MCP tools beside each key that may name some
 * (`"github_*": "deny"` gains `"mcp__github_*": "deny"`), right after it, so that the order of the
 * rules, in which the last match wins, is kept; V2's rule list (`{ permission, pattern, action }`)
 * alike. A name agentry's form is already given for keeps what was written under it. Anything else
 * is returned as it is, for the permission reader to refuse.
 */
export function withAgentryMcpNames(value: unknown): { value: unknown; mirrored: Array<[string, string]> } {
  const mirrored: Array<[string, string]> = [];
  if (Array.isArray(value)) {
    const written = new Set(value.map((rule) => (isRecord(rule) ? rule.permission : undefined)));
    const rules = value.flatMap((rule) => {
      if (!isRecord(rule) || typeof rule.permission !== "string" || !mayNameOpenCodeMcpTools(rule.permission))
        return [rule];
      const name = openCodeMcpPattern(rule.permission);
      if (written.has(name)) return [rule];
      mirrored.push([rule.permission, name]);
      return [rule, { ...rule, permission: name }];
    });
    return { value: rules, mirrored };
  }
  if (!isRecord(value)) return { value, mirrored };
  const result: Record<string, unknown> = {};
  for (const [key, rule] of Object.entries(value)) {
    result[key] = rule;
    if (!mayNameOpenCodeMcpTools(key)) continue;
    const name = openCodeMcpPattern(key);
    if (Object.hasOwn(value, name)) continue;
    delete result[name]; // mirrored from an earlier key already: its place is now after this one
    result[name] = rule;
    mirrored.push([key, name]);
  }
  return { value: result, mirrored };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
