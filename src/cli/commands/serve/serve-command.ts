import { type Command, Option } from "commander";
import type { CommandDeps } from "../command-deps.ts";
import { cwdOption, hostOption, permissionModeOption, portOption, trustProjectOption } from "../options.ts";
import type { ServeOptions } from "./serve.ts";

export const DEFAULT_SERVE_PORT = 4180;

// Spelled out, not imported from serve-token.ts: registering a command loads nothing else.
const SERVE_TOKEN_ENV = "AGENTRY_SERVE_TOKEN";

const SERVE_HELP = `
Each agent (built-in and from agent files) is its own A2A v1.0 agent: JSON-RPC with SSE
streaming at http://<host>:<port>/agents/<name>/ (the URLs printed on stdout), its card at
<that URL>.well-known/agent-card.json. The card at http://<host>:<port>/.well-known/agent-card.json
is the --agent one's (default general-purpose) and lists the others. Every request, the cards
included, needs Authorization: Bearer <token>.

Token: ${SERVE_TOKEN_ENV}, or one generated at start and printed on stderr (loopback only;
listening on another address without ${SERVE_TOKEN_ENV} is refused).

Tasks are records in this workspace: agentry tasks list shows them. A message in the same
A2A context continues the conversation. Permission asks follow --permission-mode; nobody
is asked (default: what a rule does not allow is denied, and the agent is told).

Examples:
  $ agentry serve
  $ ${SERVE_TOKEN_ENV}=$(openssl rand -hex 32) agentry serve --host 0.0.0.0 --port 8080
  $ agentry serve --permission-mode accept-edits --cwd ../other-repo

Delegating to it from another agentry: an agent file with
  url: http://127.0.0.1:${DEFAULT_SERVE_PORT}/agents/explore/
  headers: { Authorization: "Bearer \${FAR_TOKEN}" }
`;

/** Adds `agentry serve`; the server's modules load only when it runs. */
export function registerServeCommand(program: Command, { io, result }: CommandDeps): Command {
  return program
    .command("serve")
    .summary("offer this workspace's agents to A2A clients")
    .description(
      "Serve the workspace's agents over A2A (JSON-RPC, SSE) until interrupted, one log line per task on stderr.",
    )
    .addOption(hostOption())
    .addOption(portOption(DEFAULT_SERVE_PORT))
    .addOption(new Option("-m, --model <id>", "the model of agents that inherit theirs"))
    .addOption(new Option("--agent <name>", "the agent whose card is at the root (default: general-purpose)"))
    .addOption(
      new Option("--public-cards", "answer the agent cards without the token (every call still needs it)"),
    )
    .addOption(
      permissionModeOption("what happens when a tool needs approval and no rule decides (nobody is asked)"),
    )
    .addOption(cwdOption())
    .addOption(trustProjectOption())
    .addHelpText("after", SERVE_HELP)
    .action(async (options: ServeOptions) => {
      const { serveCommand } = await import("./serve.ts");
      result.exitCode = await serveCommand(options, io, program.version() ?? "0.0.0");
    });
}
