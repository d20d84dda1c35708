import type { Command } from "commander";
import { type CommandDeps, lazyAction } from "../command-deps.ts";
import { cwdOption, jsonOption, trustProjectOption } from "../options.ts";

const CONFIG_HELP = `
Each value is shown with where it came from: a flag, an AGENTRY_* variable, a config
file (the project's or yours) or the default. API keys and headers are said to be set,
never shown. Below them, what the project's files hold that did not apply: settings
that wait until you trust the folder (agentry trust), and settings no project may set.
Precedence and every key: docs/configuration.md.

Exit codes: 0 shown, 2 a bad configuration (the message names the file and the key).

Examples:
  $ agentry config
  $ agentry config --json | jq '.withheld'
`;

/** Adds `agentry config` (also `agentry config show`). */
export function registerConfigCommand(program: Command, deps: CommandDeps): Command {
  const command = program
    .command("config")
    .summary("show the effective settings, where each came from, and what was withheld")
    .description(
      "Show the settings a run in this workspace would use, each with its source, and what the project's " +
        "files hold that was not applied (waiting for trust, or never from a project).",
    )
    .addOption(cwdOption())
    .addOption(trustProjectOption())
    .addOption(jsonOption())
    .addHelpText("after", CONFIG_HELP)
    .action(lazyAction(deps, async () => (await import("./config.ts")).configCommand));
  command
    .command("show")
    .description("the same as agentry config")
    .addOption(cwdOption())
    .addOption(trustProjectOption())
    .addOption(jsonOption())
    .action(lazyAction(deps, async () => (await import("./config.ts")).configCommand));
  return command;
}
