import { type Command, Option } from "commander";
import { type CommandDeps, lazyAction } from "../command-deps.ts";
import { jsonOption } from "../options.ts";

const TRUST_HELP = `
A repository's own files (agentry.json, .agentry/config.json, agent files) narrow what agentry
may do at once: deny and ask rules, smaller limits, hidden paths. What would widen it — MCP
servers it starts, allow rules, other permission modes, network hosts, larger limits, models
on another endpoint — applies only in a folder you trust. Trust is recorded with a hash of
those settings: when a later pull changes them, agentry asks again (interactive chat) or
leaves them out and says so (agentry run). No project may choose where your API keys go
(providers), the fleet, or allow commands out of the OS sandbox, trusted or not.

The record is kept in $XDG_STATE_HOME/agentry/trusted-folders.json (default
~/.local/state/agentry/); "trustedFolders" in your user config trusts folders and their
subfolders whatever they hold. See docs/configuration.md ("Trust") and docs/security.md.

Exit codes: 0 done, 1 --revoke of a folder that was not trusted, 2 a usage error.

Examples:
  $ agentry trust                 # trust the current folder as its settings stand
  $ agentry trust ~/src/project
  $ agentry trust --list
  $ agentry trust --revoke
`;

/** Adds `agentry trust [dir]`. */
export function registerTrustCommand(program: Command, deps: CommandDeps): Command {
  return program
    .command("trust")
    .argument("[dir]", "the folder (default: the current directory)")
    .summary("trust a folder, so its project settings that widen what agentry may do apply")
    .description(
      "Trust a project folder: its MCP servers, allow rules and other widening settings apply from now on, " +
        "as they stand (a change to them asks again). Prints what that lets apply.",
    )
    .addOption(new Option("--list", "list the trusted folders").conflicts("revoke"))
    .addOption(new Option("--revoke", "stop trusting the folder"))
    .addOption(jsonOption())
    .addHelpText("after", TRUST_HELP)
    .action(lazyAction(deps, async () => (await import("./trust.ts")).trustCommand));
}
