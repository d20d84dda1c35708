import { Command } from "commander";
import { registerAgentsCommand } from "./commands/agents/agents-command.ts";
import { registerChatCommand } from "./commands/chat/chat-command.ts";
import type { CommandDeps, ProgramResult } from "./commands/command-deps.ts";
import { registerConfigCommand } from "./commands/config/config-command.ts";
import { registerDemoCommand } from "./commands/demo/demo-command.ts";
import { registerDoctorCommand } from "./commands/doctor/doctor-command.ts";
import { registerMcpCommand } from "./commands/mcp/mcp-command.ts";
import { registerRunCommand } from "./commands/run/run-command.ts";
import { registerServeCommand } from "./commands/serve/serve-command.ts";
import { registerSessionsCommand } from "./commands/sessions/sessions-command.ts";
import { registerSkillsCommand } from "./commands/skills/skills-command.ts";
import { registerTasksCommand } from "./commands/tasks/tasks-command.ts";
import { registerTrustCommand } from "./commands/trust/trust-command.ts";
import { registerUiCommand } from "./commands/ui/ui-command.ts";
import { registerWorkerCommand } from "./commands/worker/worker-command.ts";
import { registerWorkflowCommand } from "./commands/workflow/workflow-command.ts";
import type { CliIo } from "./io.ts";

export type { ProgramResult } from "./commands/command-deps.ts";

const PROGRAM_FOOTER = `
Start here: agentry demo (offline, no API key) shows subagents at work.
Interactive: agentry with no command, on a terminal, starts a conversation:
the same as agentry chat, whose options it takes (agentry --model opus).
Help on a command: agentry help <command>, e.g. agentry help run.

Configuration: agentry.json (or .agentry/config.json) in the project and
$XDG_CONFIG_HOME/agentry/config.json (default ~/.config/agentry/config.json).
Precedence: flags > environment > project > user > defaults; a project's files
narrow at once and widen only in a folder you trust (agentry trust, agentry config).
A model needs ANTHROPIC_API_KEY or OPENAI_API_KEY (or --model ollama:…).
Keys, AGENTRY_* variables and providers: docs/configuration.md, docs/providers.md.
The README lists every page of docs/.
`;

/** Each command registers itself, in the order `agentry --help` lists them. */
const COMMANDS: ReadonlyArray<(program: Command, deps: CommandDeps) => Command> = [
  registerRunCommand,
  registerChatCommand,
  registerSessionsCommand,
  registerAgentsCommand,
  registerSkillsCommand,
  registerDemoCommand,
  registerTasksCommand,
  registerWorkflowCommand,
  registerWorkerCommand,
  registerMcpCommand,
  registerServeCommand,
  registerUiCommand,
  registerConfigCommand,
  registerTrustCommand,
  registerDoctorCommand,
];

/**
 * The commander program. Actions import their command modules lazily so `--version` and `--help`
 * never load the model providers.
 */
export function createProgram(version: string, io: CliIo, result: ProgramResult): Command {
  const program = new Command("agentry")
    .description("A coding agent harness whose first-class feature is subagents.")
    .version(version, "-v, --version", "print the version and exit")
    .helpOption("-h, --help", "show help for a command")
    .helpCommand("help [command]", "show help for a command")
    .showSuggestionAfterError()
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
    })
    .exitOverride()
    .addHelpText("after", PROGRAM_FOOTER);
  const deps: CommandDeps = { io, result };
  for (const register of COMMANDS) register(program, deps);
  return program;
}
