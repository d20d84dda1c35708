import type { Command } from "commander";
import { storeOption } from "../../fleet-flags.ts";
import { type CommandDeps, lazyAction } from "../command-deps.ts";
import { cwdOption, hostOption, portOption } from "../options.ts";

export const DEFAULT_UI_PORT = 4181;

// Spelled out, not imported from serve-token.ts: registering a command loads nothing else.
const UI_TOKEN_ENV = "AGENTRY_UI_TOKEN";

const UI_HELP = `
Serves one page that shows every task of the workspace (or, with --store, of the fleet) as a
live tree: agent path, status, where it runs (this machine, a worker, a remote agent), turns,
tokens and cost, the tool it runs now, waiting for model capacity. Click a task for its
transcript; cancel it, or send it a message for its next turn (its owner process delivers it,
as agentry tasks cancel asks it to stop). The page follows the store's changes as they happen.

Token: ${UI_TOKEN_ENV}, or one generated at start. The address printed on stdout carries it
(?token=…) once; the page then keeps it in a cookie. Listening on another address than
loopback without ${UI_TOKEN_ENV} is refused. See docs/ui.md.

Examples:
  $ agentry ui
  $ agentry ui --store redis://fleet-redis:6379/0
  $ ${UI_TOKEN_ENV}=$(openssl rand -hex 32) agentry ui --host 0.0.0.0 --port 8080
`;

/** Adds `agentry ui`; the server's modules load only when it runs. */
export function registerUiCommand(program: Command, deps: CommandDeps): Command {
  return program
    .command("ui")
    .summary("watch every task live in a web page, with transcripts, cancel and messages")
    .description(
      "Serve a web page that shows the workspace's (or the fleet's) tasks as a live tree until interrupted.",
    )
    .addOption(hostOption())
    .addOption(portOption(DEFAULT_UI_PORT))
    .addOption(storeOption())
    .addOption(cwdOption())
    .addHelpText("after", UI_HELP)
    .action(lazyAction(deps, async () => (await import("./ui.ts")).uiCommand));
}
