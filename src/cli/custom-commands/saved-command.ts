/** Where a saved command came from: a repository's folder, the user's, or (later) an MCP server. */
export interface CommandSource {
  kind: "project" | "user" | "mcp";
  /** The file or server, as messages name it (`.claude/commands/review.md`, `~/.claude/commands/x.md`). */
  label: string;
}

/**
 * A saved prompt the person runs as `/name args` (Claude Code's custom slash commands, OpenCode's
 * commands): its front matter's settings and how to get its text.
 */
export interface SavedCommand {
  /** `review`, or `frontend:component` for `.claude/commands/frontend/component.md` (its folders, `:`-joined). */
  name: string;
  description: string;
  /** `argument-hint`: what it takes, for `/help` (`[pr-number] [priority]`). */
  argumentHint?: string;
  /** `model`: the model its turn runs with. */
  model?: string;
  /** `allowed-tools`: what its turn may use without asking (Claude Code's rule spelling). */
  allowedTools?: string[];
  /** `agent`: the subagent that does it (OpenCode). */
  agent?: string;
  source: CommandSource;
  /**
   * Its text for these arguments, before `!`cmd`` runs (a file's body with `$ARGUMENTS`, `$1`… filled).
   * Whether its text may run commands (`!`cmd``): a file's may; a server's prompt never does.
   */
  text(args: string): Promise<string>;
  preExecute: boolean;
}

/**
 * Where saved commands come from. Files are one provider (`commandFiles`); an MCP server's prompts are
 * another, to plug in beside it: each prompt as `mcp__<server>__<prompt>`, its text from `prompts/get`
 * with the arguments in order, `preExecute: false` (a server's text never runs commands here).
 */
export interface CommandProvider {
  commands(): Promise<SavedCommand[]>;
}

/** The command `/name` runs: an exact name, else the one command whose last `:` part is `name`. */
export function findCommand(commands: readonly SavedCommand[], name: string): SavedCommand | undefined {
  const exact = commands.find((command) => command.name === name);
  if (exact !== undefined) return exact;
  const short = commands.filter((command) => command.name.split(":").at(-1) === name);
  return short.length === 1 ? short[0] : undefined;
}
