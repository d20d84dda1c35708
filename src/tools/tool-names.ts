/**
 * Canonical tool names and the names other harnesses use for the same tools.
 *
 * Agent files from Claude Code, OpenCode, Codex, Cursor or Gemini name tools their own way. We map what
 * we can onto our tools and report the rest: an unknown name is never widened into "all tools".
 */

export const CANONICAL_TOOL_NAMES = [
  "bash",
  "read",
  "write",
  "edit",
  "grep",
  "glob",
  "list",
  "task",
  "task_send",
  "task_wait",
  "task_output",
  "task_cancel",
  "task_list",
  // Loads a skill (src/skills/); present when skills are installed. Claude Code calls it `Skill`.
  "skill",
] as const;

export type CanonicalToolName = (typeof CANONICAL_TOOL_NAMES)[number];

/** Lower-cased foreign name → canonical name. Canonical names map to themselves. */
const ALIASES: ReadonlyMap<string, CanonicalToolName> = new Map<string, CanonicalToolName>([
  ...CANONICAL_TOOL_NAMES.map((name) => [name, name] as const),
  ["read_file", "read"],
  ["view", "read"],
  ["readfile", "read"],
  ["shell", "bash"],
  ["run_terminal_cmd", "bash"],
  ["run_shell_command", "bash"],
  ["terminal", "bash"],
  ["write_file", "write"],
  ["create_file", "write"],
  ["multiedit", "edit"],
  ["str_replace", "edit"],
  ["str_replace_editor", "edit"],
  ["str_replace_based_edit_tool", "edit"],
  ["apply_patch", "edit"],
  ["patch", "edit"],
  ["edit_file", "edit"],
  ["replace", "edit"],
  ["search", "grep"],
  ["grep_search", "grep"],
  ["search_file_content", "grep"],
  ["find", "glob"],
  ["find_files", "glob"],
  ["file_search", "glob"],
  ["ls", "list"],
  ["list_dir", "list"],
  ["list_directory", "list"],
  ["agent", "task"],
]);

/**
 * Tools other harnesses have and agentry does not. Listing one is not a mistake in the file, so it is
 * reported more gently than a name nobody knows.
 */
const RECOGNIZED_UNSUPPORTED: ReadonlySet<string> = new Set([
  "webfetch",
  "websearch",
  "web_search",
  "web_fetch",
  "notebookedit",
  "notebookread",
  "todowrite",
  "todoread",
  "exitplanmode",
  "bashoutput",
  "killshell",
  "killbash",
  "slashcommand",
  "askuserquestion",
  "taskcreate",
  "taskget",
  "taskupdate",
  "tasklist",
  "taskoutput",
  "taskstop",
  "sendmessage",
  "teamcreate",
  "teamdelete",
  "lsp",
  "codesearch",
  "update_plan",
  "view_image",
]);

export type ToolNameKind =
  | { kind: "canonical"; name: CanonicalToolName }
  /** `mcp__server__tool` (or `mcp__server`), kept exactly as written. */
  | { kind: "mcp"; name: string }
  /** A tool another harness has and we do not. */
  | { kind: "unsupported"; name: string }
  | { kind: "unknown"; name: string };

export function isCanonicalToolName(name: string): name is CanonicalToolName {
  return (CANONICAL_TOOL_NAMES as readonly string[]).includes(name);
}

export function isMcpToolName(name: string): boolean {
  return /^mcp__[^_\s]/.test(name);
}

/** Classifies one tool name as written in an agent file (case-insensitive, surrounding spaces ignored). */
export function classifyToolName(raw: string): ToolNameKind {
  const name = raw.trim();
  if (isMcpToolName(name)) return { kind: "mcp", name };
  const key = name.toLowerCase();
  const canonical = ALIASES.get(key);
  if (canonical !== undefined) return { kind: "canonical", name: canonical };
  if (RECOGNIZED_UNSUPPORTED.has(key)) return { kind: "unsupported", name };
  return { kind: "unknown", name };
}

/**
 * Maps names from any harness onto canonical names, keeping MCP names as written.
 * `unknown` lists every name we could not map (including tools we recognise but do not have), in input
 * order; the caller reports them. Nothing unknown is ever turned into a wider grant.
 */
export function mapToolNames(names: readonly string[]): { tools: string[]; unknown: string[] } {
  const tools: string[] = [];
  const unknown: string[] = [];
  for (const raw of names) {
    if (raw.trim() === "") continue;
    const kind = classifyToolName(raw);
    if (kind.kind === "canonical" || kind.kind === "mcp") {
      if (!tools.includes(kind.name)) tools.push(kind.name);
    } else if (!unknown.includes(kind.name)) {
      unknown.push(kind.name);
    }
  }
  return { tools, unknown };
}
