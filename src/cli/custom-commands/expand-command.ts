import type { AgentConfig } from "../../agent/config.ts";
import { AgentryError, isAgentryError } from "../../errors/agentry-error.ts";
import { rootToolContext } from "../root-tool-context.ts";
import type { CommandGrants } from "./command-grants.ts";
import type { SavedCommand } from "./saved-command.ts";
import { shellPlaceholders } from "./substitute.ts";

/** A saved command that cannot run as asked (a `!`cmd`` refused): nothing is sent. */
export class CommandError extends AgentryError {
  override readonly name = "CommandError";
  readonly kind = "user";
}

export interface ExpandOptions {
  /** The root agent: its bash tool, command policy (the OS sandbox) and permission gate. */
  config: AgentConfig;
  signal: AbortSignal;
  /** Whether the folder is trusted: a repository's command grants `allowed-tools` only then. */
  trusted: boolean;
  grants: CommandGrants;
  /** Subagents the root may start (for `agent`). */
  subagents: readonly string[];
  /** One line for the person (stderr). */
  say: (line: string) => void;
}

/**
 * `/name args` as the prompt it stands for: its text with the arguments filled, each `` !`cmd` ``
 * replaced by what the command printed — run through the root's own `bash` tool, so the permission
 * rules, the prompt and the OS sandbox are the agent's — and, for `agent`, handed to that subagent.
 * Its `allowed-tools` apply from here until the caller clears the grants (the end of its turn).
 * `@path` mentions stay in the text: the prompt's mentions are read as a typed prompt's are.
 */
export async function expandCommand(
  command: SavedCommand,
  args: string,
  options: ExpandOptions,
): Promise<string> {
  const tools = command.allowedTools ?? [];
  if (tools.length > 0) {
    if (command.source.kind === "project" && !options.trusted)
      options.say(
        `/${command.name}: its allowed-tools (${tools.join(", ")}) were not granted: the folder is not trusted`,
      );
    else {
      const problem = options.grants.grant(tools, command.name);
      if (problem !== undefined) options.say(`/${command.name}: allowed-tools not granted: ${problem}`);
    }
  }
  let text = await command.text(args);
  if (command.preExecute) {
    for (const { match, command: shell } of shellPlaceholders(text)) {
      const output = await runShell(shell, options);
      text = text.replace(match, () => output);
    }
  }
  if (command.agent === undefined) return text;
  if (!options.subagents.includes(command.agent)) {
    options.say(`/${command.name}: agent "${command.agent}" is not a subagent here; the main agent runs it`);
    return text;
  }
  return `Use the task tool to have the "${command.agent}" subagent (subagent_type "${command.agent}") do the following, then report what it found or changed:\n\n${text}`;
}

async function runShell(command: string, options: ExpandOptions): Promise<string> {
  const bash = options.config.tools.find((tool) => tool.name === "bash");
  if (bash === undefined)
    throw new CommandError(
      `!\`${command}\` was not run: the agent has no bash tool here, so the command is not sent`,
    );
  const context = rootToolContext(options.config, options.signal, { sessionId: "", toolCallId: "command" });
  try {
    const result = await bash.execute({ command }, context);
    return (typeof result === "string" ? result : result.content).trimEnd();
  } catch (error) {
    if (!isAgentryError(error)) throw error;
    throw new CommandError(`!\`${command}\` was not run, so the command is not sent: ${error.message}`, {
      cause: error,
    });
  }
}

/** `expandCommand` for the root of a wired run: its grants, its subagents, the folder's trust. */
export function rootExpandOptions(
  wired: { config: AgentConfig; commandGrants: CommandGrants; subagents: () => readonly string[] },
  trusted: boolean,
  signal: AbortSignal,
  say: (line: string) => void,
): ExpandOptions {
  return {
    config: wired.config,
    signal,
    trusted,
    grants: wired.commandGrants,
    subagents: wired.subagents(),
    say,
  };
}
