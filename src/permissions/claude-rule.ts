/** Claude Code tool names, and our own, mapped onto our permission names. */
const TOOL_PERMISSIONS: Record<string, string> = {
  Bash: "bash",
  Read: "read",
  Grep: "read",
  Glob: "read",
  LS: "read",
  Edit: "edit",
  Write: "edit",
  MultiEdit: "edit",
  NotebookEdit: "edit",
  Task: "task",
  Agent: "task",
  WebFetch: "webfetch",
  WebSearch: "websearch",
  bash: "bash",
  read: "read",
  grep: "read",
  glob: "read",
  list: "read",
  edit: "edit",
  write: "edit",
  task: "task",
  webfetch: "webfetch",
  external_directory: "external_directory",
};

const RULE = /^([A-Za-z_][\w-]*)(?:\((.*)\))?$/s;

/**
 * Maps one Claude Code permission string onto our permission and patterns, or returns why it cannot:
 * `Bash(git diff:*)` → bash `git diff *`; `Read(./src/**)` → read `src/**`; `Read(//etc/x)` → read
 * `/etc/x` (absolute); `Edit` → edit `*`; `WebFetch(domain:x.dev)` → webfetch `https://x.dev/*` …;
 * `mcp__github__create_issue` stays as it is, `mcp__github` covers every tool of that server.
 */
export function claudeRule(entry: string): { permission: string; patterns: string[] } | string {
  const match = RULE.exec(entry.trim());
  if (match === null) return `cannot read rule ${JSON.stringify(entry)} (expected Tool or Tool(specifier))`;
  const tool = match[1] as string;
  const specifier = match[2]?.trim() ?? "";
  if (tool.startsWith("mcp__")) {
    const permission = tool.split("__").length === 2 ? `${tool}__*` : tool;
    return { permission, patterns: [specifier === "" ? "*" : specifier] };
  }
  const permission = Object.hasOwn(TOOL_PERMISSIONS, tool) ? TOOL_PERMISSIONS[tool] : undefined;
  if (permission === undefined) {
    const known = Object.keys(TOOL_PERMISSIONS).filter((name) => /^[A-Z]/.test(name));
    return `unknown tool "${tool}" in ${JSON.stringify(entry)} (known: ${known.join(", ")}, mcp__<server>__<tool>)`;
  }
  if (specifier === "" || specifier === "*") return { permission, patterns: ["*"] };
  if (permission === "bash") return { permission, patterns: [specifier.replace(/:\*$/, " *")] };
  if (permission === "webfetch" && specifier.startsWith("domain:")) {
    const host = specifier.slice("domain:".length);
    return {
      permission,
      patterns: [`https://${host}`, `https://${host}/*`, `http://${host}`, `http://${host}/*`],
    };
  }
  if (permission === "read" || permission === "edit")
    return { permission, patterns: [claudePath(specifier)] };
  return { permission, patterns: [specifier] };
}

/** Claude paths: `//x` is absolute, `/x` is relative to the project root, `./x` and `x` to the workspace. */
function claudePath(path: string): string {
  if (path.startsWith("//")) return path.slice(1);
  if (path.startsWith("./")) return path.slice(2);
  if (path.startsWith("/")) return path.slice(1);
  return path;
}

/** Our permissions under Claude Code's tool names, for showing a rule the way its users write one. */
const CLAUDE_NAMES: Record<string, string> = {
  bash: "Bash",
  read: "Read",
  edit: "Edit",
  task: "Task",
  webfetch: "WebFetch",
  websearch: "WebSearch",
};

/**
 * A rule written the way Claude Code writes it: `Bash(npm test:*)` for a command prefix, `Bash(make)`
 * for one exact command, `Read(*.env)`, `Edit(src/a.ts)`; permissions it has no name for keep ours
 * (`unsandboxed(curl x)`, `mcp__github__create_issue(*)`).
 */
export function claudeRuleText(permission: string, pattern: string, commandPrefix: boolean): string {
  const tool = Object.hasOwn(CLAUDE_NAMES, permission) ? CLAUDE_NAMES[permission] : permission;
  const specifier = commandPrefix && pattern.endsWith(" *") ? `${pattern.slice(0, -2)}:*` : pattern;
  return `${tool}(${specifier})`;
}
