import { Command, InvalidArgumentError, Option } from "commander";
import { PERMISSION_MODES } from "../permissions/modes.ts";
import type { AgentsOptions } from "./commands/agents.ts";
import type { ChatOptions } from "./commands/chat.ts";
import { registerDemoCommand } from "./commands/demo.ts";
import { registerDoctorCommand } from "./commands/doctor.ts";
import { mcpConfigOption, registerMcpCommand } from "./commands/mcp.ts";
import type { RunOptions } from "./commands/run.ts";
import type { SessionsOptions } from "./commands/sessions.ts";
import { registerTasksCommand } from "./commands/tasks.ts";
import type { CliIo } from "./io.ts";
import { OUTPUT_FORMATS } from "./render/renderer.ts";

/** What a command's action hands back to `main`. */
export interface ProgramResult {
  exitCode: number;
}

const RUN_EXAMPLES = `
Examples:
  $ agentry run "Why does npm test fail? Fix it."
  $ agentry run --model openai:gpt-5.5 "Add a --verbose flag to the CLI"
  $ cat task.md | agentry run -                    # the prompt is read from stdin
  $ agentry run --output-format json "Summarize README.md" | jq -r .result
  $ agentry run --output-format stream-json "…"     # one JSON event per line (docs/stream-json.md)
  $ agentry run --resume 20250114-093012-k3f9qa "Now add tests for it"
  $ agentry run --permission-mode bypass --cwd ../other-repo "Run the tests and fix failures"
  $ agentry run --max-cost 2 --timeout 900 "Fix the flaky test"   # budgets of the whole tree
  $ agentry run --agents '{"reviewer": {"description": "Reviews diffs", "prompt": "…"}}' "Review the last commit"

Subagents: the agent can delegate to the agents listed by \`agentry agents list\` with its
task tool; children run in parallel, in the background or in a git worktree, and only
their final text returns. Limits are under "subagents" in agentry.json (maxDepth,
maxConcurrent, maxTurns, timeoutMs, maxTokens …). While children run, a live tree is
drawn on stderr (on a terminal; otherwise one line per child start and end).

Permission modes (what happens when a tool needs approval and no rule decides):
  default       ask on a terminal; deny with a message to the model when not interactive
  accept-edits  allow file edits in the workspace; other requests as in default
  bypass        allow everything (use only in a sandbox)
  plan          read-only: deny edits and commands that change things

Exit codes: 0 completed, 1 error, 2 usage or config error, 3 max turns reached,
4 budget exceeded, 130 interrupted. See README.md.
`;

const CHAT_HELP = `
Type a message and press Enter; every line is a turn of the same conversation, with
the same tools and subagents as agentry run. The answer streams to stdout, tool
activity and subagents show on stderr, and a summary line (turns, tokens of the whole
tree, cost) follows each turn.

Commands inside the session:
  /help           the commands and keys
  /new            start a fresh session (the current one stays stored)
  /session        the session id and how to continue it (agentry chat --resume <id>)
  /model [id]     show the model, or switch it for the next turns
  /agents         the subagents the agent can delegate to
  /tasks          this session's subagent tasks and their status
  /mcp            the MCP servers of this session and their tools
  /exit, /quit    leave

Keys: Ctrl-C interrupts a running turn (its commands are killed) and returns to the
prompt; at an empty prompt, Ctrl-C twice or Ctrl-D exits. ↑/↓ recall earlier lines.

On a terminal, permission requests are asked (y once, a always, n no).
With piped input (one prompt per line, for scripts) they resolve by
--permission-mode, as in agentry run.

Exit code: 0 when the session ends (130 after SIGTERM); 2 for a usage or
configuration error before it starts.

Examples:
  $ agentry                                   # on a terminal: the same as agentry chat
  $ agentry chat --model openai:gpt-5.5
  $ agentry chat --resume 20250114-093012-k3f9qa
  $ agentry --model opus                      # options without a command go to chat
  $ printf 'List the TODOs\\nFix the first one\\n' | agentry chat --permission-mode accept-edits
`;

const PROGRAM_FOOTER = `
Start here: agentry demo (offline, no API key) shows subagents at work.
Interactive: agentry with no command, on a terminal, starts a conversation:
the same as agentry chat, whose options it takes (agentry --model opus).
Help on a command: agentry help <command>, e.g. agentry help run.

Configuration: agentry.json (or .agentry/config.json) in the project and
$XDG_CONFIG_HOME/agentry/config.json (default ~/.config/agentry/config.json).
Precedence: flags > environment > project > user > defaults. See README.md.

Environment:
  ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL   Anthropic (base URL without /v1)
  OPENAI_API_KEY, OPENAI_BASE_URL         OpenAI (base URL with /v1)
  OLLAMA_HOST, OLLAMA_BASE_URL            a local Ollama
  AGENTRY_MODEL, AGENTRY_MAX_TURNS, AGENTRY_PERMISSION_MODE
`;

const SESSIONS_HELP = `
Examples:
  $ agentry sessions list
  $ agentry sessions show 20250114-093012-k3f9qa
  $ agentry sessions show sub-20250114-093015-x7w2pd --json | jq '.entries | length'
`;

const AGENTS_HELP = `
Formats: agentry and AgentScope front matter (.agentry/agents, subagents/), Claude Code
(.claude/agents), OpenCode (.opencode/agent(s)) and Codex TOML roles (.codex/agents).
Problems in a file never stop a run: the file is read leniently or skipped, and
\`agentry agents check\` says what and why. See docs/agent-files.md.

Examples:
  $ agentry agents list
  $ agentry agents show explore
  $ agentry agents check --json | jq '.diagnostics[] | select(.severity == "error")'
  $ agentry agents list --agents '{"reviewer": {"description": "Reviews diffs", "prompt": "…"}}'
`;

function positiveInteger(value: string): number {
  const number = Number(value);
  if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(number) || number <= 0) {
    throw new InvalidArgumentError("must be a positive integer.");
  }
  return number;
}

/** `--max-concurrency`: shared by `run` and `chat`. */
function maxConcurrencyOption(): Option {
  return new Option(
    "--max-concurrency <n>",
    "the most model calls in flight at once per model endpoint, for the agent and its subagents together; the limit adapts below it to what the provider accepts (default 32)",
  ).argParser(positiveInteger);
}

function positiveNumber(value: string): number {
  const number = Number(value);
  if (!/^\d+(\.\d+)?$/.test(value.trim()) || !(number > 0)) {
    throw new InvalidArgumentError("must be a positive number.");
  }
  return number;
}

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

  program
    .command("run")
    .summary("run the agent once on a prompt")
    .description(
      "Run the coding agent on a prompt until it answers, then exit. The answer streams to stdout; " +
        "tool activity is shown on stderr.",
    )
    .argument("<prompt>", 'what to do; "-" reads the prompt from stdin')
    .addOption(
      new Option(
        "-m, --model <id>",
        "model as provider:model (anthropic:…, openai:…, ollama:…) or an alias (sonnet, opus, haiku)",
      ),
    )
    .addOption(
      new Option("--max-turns <n>", "stop after this many model turns (default 30)").argParser(
        positiveInteger,
      ),
    )
    .addOption(maxConcurrencyOption())
    .addOption(
      new Option(
        "--max-tokens <n>",
        "stop the run (exit 4) once the agent and its subagents used more tokens (input, output, cache) than this",
      ).argParser(positiveInteger),
    )
    .addOption(
      new Option(
        "--max-cost <usd>",
        "stop the run (exit 4) once the agent and its subagents cost more than this many US dollars (models with a known price)",
      ).argParser(positiveNumber),
    )
    .addOption(
      new Option(
        "--timeout <seconds>",
        "stop the run (exit 4) after this many seconds, subagents included",
      ).argParser(positiveNumber),
    )
    .addOption(
      new Option(
        "-o, --output-format <format>",
        "text (streamed), json (one result object at the end) or stream-json (one event per line)",
      )
        .choices(OUTPUT_FORMATS)
        .default("text"),
    )
    .addOption(new Option("-C, --cwd <dir>", "workspace directory (default: the current directory)"))
    .addOption(
      new Option("-r, --resume <session-id>", "continue a stored session (see: agentry sessions list)"),
    )
    .addOption(
      new Option(
        "--permission-mode <mode>",
        "how permission requests no rule decides are resolved (default: default)",
      ).choices(PERMISSION_MODES),
    )
    .addOption(new Option("--system-prompt <text>", "replace the built-in system prompt"))
    .addOption(new Option("--append-system-prompt <text>", "append text to the system prompt"))
    .addOption(mcpConfigOption())
    .addOption(
      new Option(
        "--agents <json>",
        'extra subagents as JSON, e.g. \'{"reviewer": {"description": "…", "prompt": "…", "tools": ["read"]}}\'; they override agent files',
      ),
    )
    .addHelpText("after", RUN_EXAMPLES)
    .action(async (prompt: string, options: RunOptions) => {
      const { runCommand } = await import("./commands/run.ts");
      result.exitCode = await runCommand(prompt, options, io);
    });

  program
    .command("chat")
    .summary("talk with the agent, turn after turn (also: agentry alone on a terminal)")
    .description(
      "Start an interactive session in the workspace: each line you type is a turn of one conversation " +
        "with the agent and its subagents, until /exit, Ctrl-D or Ctrl-C twice. With piped stdin, each line " +
        "is a prompt.",
    )
    .addOption(
      new Option(
        "-m, --model <id>",
        "model as provider:model (anthropic:…, openai:…, ollama:…) or an alias (sonnet, opus, haiku); /model switches it",
      ),
    )
    .addOption(new Option("-C, --cwd <dir>", "workspace directory (default: the current directory)"))
    .addOption(
      new Option("-r, --resume <session-id>", "continue a stored session (see: agentry sessions list)"),
    )
    .addOption(
      new Option(
        "--permission-mode <mode>",
        "how permission requests no rule decides are resolved (default: default, which asks on a terminal)",
      ).choices(PERMISSION_MODES),
    )
    .addOption(mcpConfigOption())
    .addOption(
      new Option("--agents <json>", "extra subagents as JSON, as for agentry run; they override agent files"),
    )
    .addOption(
      new Option("--max-turns <n>", "model turns allowed per message (default 30)").argParser(
        positiveInteger,
      ),
    )
    .addOption(maxConcurrencyOption())
    .addHelpText("after", CHAT_HELP)
    .action(async (options: ChatOptions) => {
      const { chatCommand } = await import("./commands/chat.ts");
      result.exitCode = await chatCommand(options, io);
    });

  const sessions = program
    .command("sessions")
    .summary("list and show stored sessions")
    .description(
      "List and show stored sessions. Every run (and every subagent: ids starting with sub-) is stored as a " +
        'JSONL transcript in <workspace>/.agentry/sessions/. Continue one with: agentry run --resume <id> "…"',
    )
    .addHelpText("after", SESSIONS_HELP);
  sessions
    .command("list")
    .summary("list the sessions of the workspace, most recent first")
    .description(
      "List the sessions of the workspace, most recent first: id, age, agent, model, messages, outcome, title.",
    )
    .option("-C, --cwd <dir>", "workspace directory (default: the current directory)")
    .option("--json", "print the list as a JSON array")
    .action(async (options: SessionsOptions) => {
      const { sessionsListCommand } = await import("./commands/sessions.ts");
      result.exitCode = await sessionsListCommand(options, io);
    });
  sessions
    .command("show")
    .summary("show a session's transcript")
    .description("Show a session's transcript, readable: messages, tool calls and results, and the outcome.")
    .argument("<session-id>", "the session id (see: agentry sessions list)")
    .option("-C, --cwd <dir>", "workspace directory (default: the current directory)")
    .option("--json", "print the transcript header and entries as one JSON object (the raw transcript)")
    .action(async (id: string, options: SessionsOptions) => {
      const { sessionsShowCommand } = await import("./commands/sessions.ts");
      result.exitCode = await sessionsShowCommand(id, options, io);
    });
  registerAgentsCommand(program, io, result);
  registerDemoCommand(program, io, result);
  registerTasksCommand(program, { io, result });
  registerMcpCommand(program, { io, result });
  registerDoctorCommand(program, { io, result });
  return program;
}

function registerAgentsCommand(program: Command, io: CliIo, result: ProgramResult): void {
  const agents = program
    .command("agents")
    .summary("list, show and check agent definitions")
    .description(
      "List, show and check the subagents a run can delegate to. Agents come from the built-ins " +
        "(general-purpose, explore, plan, review), your home (~/.agentry/agents, ~/.claude/agents, " +
        "~/.config/opencode/agent(s), ~/.codex/agents) and the project (.agentry/agents, subagents/, " +
        ".claude/agents, .opencode/agent(s), .codex/agents). --agents JSON wins over project files, which " +
        "win over user files, which win over built-ins.",
    )
    .addHelpText("after", AGENTS_HELP);
  const common = (command: Command) =>
    command
      .option("-C, --cwd <dir>", "workspace directory (default: the current directory)")
      .option("--agents <json>", "extra agents as JSON, as for agentry run")
      .option("--json", "print JSON for scripts");
  common(
    agents
      .command("list")
      .summary("list the agents a run can delegate to")
      .description(
        "List the agents a run can delegate to: name, description, source, mode, model and tools.",
      ),
  ).action(async (options: AgentsOptions) => {
    const { agentsListCommand } = await import("./commands/agents.ts");
    result.exitCode = await agentsListCommand(options, io);
  });
  common(
    agents
      .command("show")
      .summary("show one agent's definition and prompt")
      .description(
        "Show one agent's normalized definition (tools, permission, model, workspace …) and its prompt.",
      )
      .argument("<name>", "agent name (see: agentry agents list)"),
  ).action(async (name: string, options: AgentsOptions) => {
    const { agentsShowCommand } = await import("./commands/agents.ts");
    result.exitCode = await agentsShowCommand(name, options, io);
  });
  common(
    agents
      .command("check")
      .summary("print every problem found in agent files")
      .description(
        "Print every problem found in agent files (file:line: severity: what is wrong → what was done " +
          "about it). Exit 0 when every file loaded (warnings allowed), 1 when a file could not be " +
          "loaded, 2 on invalid --agents JSON.",
      ),
  ).action(async (options: AgentsOptions) => {
    const { agentsCheckCommand } = await import("./commands/agents.ts");
    result.exitCode = await agentsCheckCommand(options, io);
  });
}
