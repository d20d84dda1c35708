import { type Command, Option } from "commander";
import type { CommandDeps } from "./command-deps.ts";
import { cwdOption, jsonOption } from "./options.ts";
import type { SessionsOptions } from "./sessions.ts";

const SESSIONS_HELP = `
Examples:
  $ agentry sessions list
  $ agentry sessions list --all                      # subagents' sessions too
  $ agentry sessions show 20250114-093012-k3f9qa
  $ agentry sessions show sub-20250114-093015-x7w2pd --json | jq '.entries | length'
`;

/** Adds `agentry sessions list|show`; transcripts are read only when one runs. */
export function registerSessionsCommand(program: Command, { io, result }: CommandDeps): Command {
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
    .summary("list your sessions in the workspace, most recent first")
    .description(
      "List the sessions you started in the workspace (not the subagents'), most recent first: id, age, agent, model, messages, outcome, title.",
    )
    .addOption(new Option("-a, --all", "list the subagents' sessions too (ids starting with sub-)"))
    .addOption(cwdOption())
    .addOption(jsonOption("print the list as a JSON array"))
    .action(async (options: SessionsOptions) => {
      const { sessionsListCommand } = await import("./sessions.ts");
      result.exitCode = await sessionsListCommand(options, io);
    });
  sessions
    .command("show")
    .summary("show a session's transcript")
    .description("Show a session's transcript, readable: messages, tool calls and results, and the outcome.")
    .argument("<session-id>", "the session id (see: agentry sessions list)")
    .addOption(cwdOption())
    .addOption(jsonOption("print the transcript header and entries as one JSON object (the raw transcript)"))
    .action(async (id: string, options: SessionsOptions) => {
      const { sessionsShowCommand } = await import("./sessions.ts");
      result.exitCode = await sessionsShowCommand(id, options, io);
    });
  return sessions;
}
