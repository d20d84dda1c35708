import type { Command } from "commander";
import type { CommandDeps } from "./command-deps.ts";
import type { DoctorOptions } from "./doctor-checks.ts";
import { cwdOption, jsonOption } from "./options.ts";

const DOCTOR_HELP = `
What it checks:
  node      the Node.js that runs agentry (22.18 or newer)
  sandbox   the OS sandbox of commands: bubblewrap on Linux, Seatbelt on macOS.
            Without it, commands are confined only by the analysis of their command
            line; the check says why and how to enable it
  profile   what commands of the main agent may do in this workspace under the
            configured permission mode: read-only or workspace-write, the protected
            paths, the hidden secrets, the allowed hosts and inherited variables
  ripgrep   rg, grep's fast backend (a slower built-in search is used without it)
  git       git, for worktree subagents

Settings: "sandbox" in the user's config (~/.config/agentry/config.json):
  { "sandbox": { "enabled": true, "network": { "allowedHosts": ["registry.npmjs.org"] },
                 "denyRead": ["~/work/secrets"], "allowWrite": ["~/.cache/pip"],
                 "env": ["GITHUB_TOKEN"] } }
A project's config may only narrow it (denyRead). AGENTRY_SANDBOX=off turns it off.
See docs/security.md.

Exit codes: 0 everything works, 1 something is missing (the sandbox, …), 2 a bad configuration.

Examples:
  $ agentry doctor
  $ agentry doctor --json | jq .sandbox
`;

/** Adds `agentry doctor`; its checks load only when it runs. */
export function registerDoctorCommand(program: Command, deps: CommandDeps): Command {
  return program
    .command("doctor")
    .summary("check the OS sandbox and the other things agentry relies on")
    .description(
      "Check what agentry needs from this machine — above all the OS sandbox that confines the commands agents run — and say how to fix what is missing.",
    )
    .addOption(cwdOption())
    .addOption(jsonOption())
    .addHelpText("after", DOCTOR_HELP)
    .action(async (options: DoctorOptions) => {
      const { doctorCommand } = await import("./doctor-checks.ts");
      deps.result.exitCode = await doctorCommand(options, deps.io);
    });
}
