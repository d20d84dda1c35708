import { type Command, Option } from "commander";
import { type CommandDeps, lazyAction } from "../command-deps.ts";
import { cwdOption, jsonOption, positiveInteger } from "../options.ts";

const SESSIONS_HELP = `
Examples:
  $ agentry sessions list
  $ agentry sessions list --all                      # subagents' sessions too
  $ agentry sessions show 20250114-093012-k3f9qa
  $ agentry sessions show sub-20250114-093015-x7w2pd --json | jq '.entries | length'
  $ agentry sessions prune --older-than 30d --dry-run
  $ agentry sessions keep 20250114-093012-k3f9qa     # no prune removes it
`;

/** Adds `agentry sessions list|show|prune|keep`; transcripts are read only when one runs. */
export function registerSessionsCommand(program: Command, deps: CommandDeps): Command {
  const sessions = program
    .command("sessions")
    .summary("list, show and prune stored sessions")
    .description(
      "List and show stored sessions. Every run (and every subagent: ids starting with sub-) is stored as a " +
        'JSONL transcript in <workspace>/.agentry/sessions/. Continue one with: agentry run --resume <id> "…"',
    )
    .addHelpText("after", SESSIONS_HELP);
  sessions
    .command("list")
    .summary("list your sessions in the workspace, most recent first")
    .description(
      "List the sessions you started in the workspace (not the subagents'), most recent first: id, age, agent, model, messages, outcome, title.",
    )
    .addOption(new Option("-a, --all", "list the subagents' sessions too (ids starting with sub-)"))
    .addOption(cwdOption())
    .addOption(jsonOption("print the list as a JSON array"))
    .action(lazyAction(deps, async () => (await import("./sessions.ts")).sessionsListCommand));
  sessions
    .command("show")
    .summary("show a session's transcript")
    .description("Show a session's transcript, readable: messages, tool calls and results, and the outcome.")
    .argument("<session-id>", "the session id (see: agentry sessions list)")
    .addOption(cwdOption())
    .addOption(jsonOption("print the transcript header and entries as one JSON object (the raw transcript)"))
    .action(lazyAction(deps, async () => (await import("./sessions.ts")).sessionsShowCommand));
  sessions
    .command("prune")
    .summary("remove old sessions, with their subagents' sessions and records")
    .description(
      "Remove the sessions you started that are older than --older-than or past the newest --keep " +
        "(without either, the retention setting of your user config), each with its subagents' sessions, " +
        "their task records and tool output. Never one that runs, holds a subagent's result its next " +
        "--resume would deliver, or was kept with agentry sessions keep.",
    )
    .option("--older-than <age>", "sessions last active longer ago than this (30d, 12h, 90m, 2w)")
    .addOption(new Option("--keep <n>", "keep your newest n sessions").argParser(positiveInteger))
    .option("--dry-run", "print what would be removed, remove nothing")
    .addOption(cwdOption())
    .addOption(jsonOption("print what was removed and left as one JSON object"))
    .action(lazyAction(deps, async () => (await import("./sessions-prune.ts")).sessionsPruneCommand));
  sessions
    .command("keep")
    .summary("keep sessions from every prune")
    .description("Mark sessions so that no prune removes them (nor their subagents'); --undo lifts it.")
    .argument("<session-id...>", "the session ids (see: agentry sessions list)")
    .option("--undo", "let a prune take them again")
    .addOption(cwdOption())
    .action(lazyAction(deps, async () => (await import("./sessions-keep.ts")).sessionsKeepCommand));
  return sessions;
}
