import { isAbsolute, relative, resolve, sep } from "node:path";

/**
 * agentry's tools as Claude Code names them and shapes their input, so a hook written for Claude Code
 * reads `tool_name` and `tool_input` where it expects them (`Bash` + `command`, `Write` + `file_path`
 * as an absolute path …), and a hook's `updatedInput` comes back in agentry's shape.
 */
const CLAUDE_NAMES: Readonly<Record<string, string>> = {
  bash: "Bash",
  read: "Read",
  write: "Write",
  edit: "Edit",
  grep: "Grep",
  glob: "Glob",
  list: "LS",
  task: "Task",
  skill: "Skill",
};

/** The name a hook's matcher and `tool_name` see: Claude Code's for agentry's tools; MCP and others as they are. */
export function claudeToolName(name: string): string {
  return CLAUDE_NAMES[name] ?? name;
}

type Args = Record<string, unknown>;

/** Fields named differently, agentry's name → Claude Code's (the same in both directions). */
const RENAMED: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  bash: { outside_sandbox: "dangerouslyDisableSandbox" },
  read: { path: "file_path" },
  write: { path: "file_path" },
  edit: { path: "file_path" },
  grep: { context: "-C" },
};

/** Path fields Claude Code gives as absolute paths. */
const PATH_FIELDS: Readonly<Record<string, readonly string[]>> = {
  read: ["path"],
  write: ["path"],
  edit: ["path"],
  grep: ["path"],
  glob: ["path"],
  list: ["path"],
};

/** A tool call's arguments as `tool_input` (Claude Code's field names, absolute paths, Bash's timeout in ms). */
export function claudeToolInput(name: string, args: unknown, workspace: string): Args {
  if (!isArgs(args)) return {};
  const renamed = RENAMED[name] ?? {};
  const paths = PATH_FIELDS[name] ?? [];
  const out: Args = {};
  for (const [key, value] of Object.entries(args)) {
    const shown = paths.includes(key) && typeof value === "string" ? resolve(workspace, value) : value;
    out[renamed[key] ?? key] = shown;
  }
  // agentry's bash timeout is in seconds, Claude Code's in milliseconds.
  if (name === "bash" && typeof args.timeout === "number") out.timeout = args.timeout * 1000;
  if (name === "list" && out.path === undefined) out.path = workspace;
  return out;
}

/**
 * A hook's `updatedInput` back in agentry's shape (the loop validates it against the tool's schema).
 * Paths inside the workspace become relative again; other fields keep their names.
 */
export function agentryToolArgs(name: string, input: Args, workspace: string): Args {
  const back = Object.fromEntries(
    Object.entries(RENAMED[name] ?? {}).map(([ours, theirs]) => [theirs, ours]),
  );
  const paths = PATH_FIELDS[name] ?? [];
  const out: Args = {};
  for (const [key, value] of Object.entries(input)) {
    const field = back[key] ?? key;
    out[field] =
      paths.includes(field) && typeof value === "string" ? insideWorkspace(value, workspace) : value;
  }
  if (name === "bash" && typeof input.timeout === "number") out.timeout = Math.ceil(input.timeout / 1000);
  return out;
}

/**
 * `tool_response` of PostToolUse, in the shape Claude Code gives its own tools' results where hooks
 * read it (`filePath` and `success` of Write/Edit, `stdout` of Bash, `file.content` of Read); the text
 * the model got for any other tool.
 */
export function claudeToolResponse(name: string, args: unknown, content: string, workspace: string): unknown {
  const input = claudeToolInput(name, args, workspace);
  const filePath = typeof input.file_path === "string" ? input.file_path : undefined;
  switch (name) {
    case "write":
    case "edit":
      return { filePath, success: true, output: content };
    case "read":
      return { type: "text", file: { filePath, content } };
    case "bash":
      return { stdout: content, stderr: "", interrupted: false, isImage: false };
    default:
      return content;
  }
}

function insideWorkspace(path: string, workspace: string): string {
  if (!isAbsolute(path)) return path;
  const rel = relative(workspace, path);
  return rel === "" ? "." : rel.startsWith(`..${sep}`) || rel === ".." || isAbsolute(rel) ? path : rel;
}

function isArgs(value: unknown): value is Args {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
