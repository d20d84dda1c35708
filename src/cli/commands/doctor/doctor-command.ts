import type { Command } from "commander";
import { type CommandDeps, lazyAction } from "../command-deps.ts";
import { cwdOption, jsonOption } from "../options.ts";

const DOCTOR_HELP = `
It checks node (22.18 or newer), the sandbox (bubblewrap on Linux, Seatbelt on macOS),
the profile of the main agent's commands in this workspace, ripgrep and git: docs/cli.md.

The sandbox's settings ("sandbox" in your user config; AGENTRY_SANDBOX=off turns it off)
and what it enforces: docs/security.md.

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
    .action(lazyAction(deps, async () => (await import("./doctor-checks.ts")).doctorCommand));
}
