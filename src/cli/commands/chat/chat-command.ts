import { type Command, Option } from "commander";
import { queueOption, storeOption } from "../../fleet-flags.ts";
import { type CommandDeps, lazyAction } from "../command-deps.ts";
import {
  continueOption,
  cwdOption,
  imageOption,
  maxConcurrencyOption,
  mcpConfigOption,
  noHooksOption,
  permissionModeOption,
  positiveInteger,
  trustProjectOption,
} from "../options.ts";

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
  /compact [focus]  replace the older turns by a summary now (long sessions are
                  compacted automatically near the model's context window:
                  docs/compaction.md)
  /agents         the subagents the agent can delegate to
  /tasks          this session's subagent tasks and their status
  /mcp            the MCP servers of this session and their tools
  /exit, /quit    leave

Keys: Ctrl-C interrupts a running turn (its commands are killed) and returns to the
prompt; at an empty prompt, Ctrl-C twice or Ctrl-D exits. ↑/↓ recall earlier lines.

On a terminal, permission requests are asked with one key: y once, a always
(the rule it adds is shown, e.g. Bash(npm test:*)), n no, t no with a message.
With piped input (one prompt per line, for scripts) they resolve by
--permission-mode, as in agentry run.

Exit code: 0 when the session ends (130 after SIGTERM); 2 for a usage or
configuration error before it starts. See docs/cli.md.

Examples:
  $ agentry                                   # on a terminal: the same as agentry chat
  $ agentry chat --model openai:gpt-5.5
  $ agentry chat --resume 20250114-093012-k3f9qa
  $ agentry --resume                          # pick one of your sessions
  $ agentry -c                                # continue your latest session here
  $ agentry --model opus                      # options without a command go to chat
  $ printf 'List the TODOs\\nFix the first one\\n' | agentry chat --permission-mode accept-edits
`;

/** Adds `agentry chat` (also `agentry` alone on a terminal); its modules load only when it runs. */
export function registerChatCommand(program: Command, deps: CommandDeps): Command {
  return program
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
    .addOption(cwdOption())
    .addOption(
      new Option(
        "-r, --resume [session-id]",
        "continue a stored session; without an id, pick one of yours (on a terminal)",
      ),
    )
    .addOption(continueOption())
    .addOption(imageOption())
    .addOption(
      permissionModeOption(
        "how permission requests no rule decides are resolved (default: default, which asks on a terminal)",
      ),
    )
    .addOption(new Option("--system-prompt <text>", "replace the built-in system prompt"))
    .addOption(new Option("--append-system-prompt <text>", "append text to the system prompt"))
    .addOption(mcpConfigOption())
    .addOption(noHooksOption())
    .addOption(
      new Option("--agents <json>", "extra subagents as JSON, as for agentry run; they override agent files"),
    )
    .addOption(
      new Option("--max-turns <n>", "model turns allowed per message (default 30)").argParser(
        positiveInteger,
      ),
    )
    .addOption(maxConcurrencyOption())
    .addOption(trustProjectOption())
    .addOption(storeOption())
    .addOption(queueOption())
    .addHelpText("after", CHAT_HELP)
    .action(lazyAction(deps, async () => (await import("./chat.ts")).chatCommand));
}
