import { type Command, Option } from "commander";
import type { CliIo } from "../io.ts";
import type { ProgramResult } from "../program.ts";

export interface McpListOptions {
  cwd?: string;
  json?: boolean;
  mcpConfig?: string[];
}

const MCP_HELP = `
Servers come from "mcpServers" in the config files (~/.config/agentry/config.json,
agentry.json or .agentry/config.json; a project's server replaces the user's of the
same name) and from --mcp-config. A server is a command (stdio) or a URL:

  "mcpServers": {
    "github": { "command": "npx", "args": ["-y", "@example/github-mcp"],
                "env": { "GITHUB_TOKEN": "\${GITHUB_TOKEN}" } },
    "docs":   { "type": "http", "url": "https://mcp.example.com/mcp",
                "headers": { "Authorization": "Bearer \${DOCS_TOKEN}" } }
  }

Their tools reach the model as mcp__<server>__<tool>. Each is a permission of its own:
a rule { "permission": "mcp__github__*", "pattern": "*", "action": "allow" } lets
them run without asking; "deny" hides them. Claude Code's .mcp.json works as is:
agentry run --mcp-config .mcp.json "…".

Exit codes: 0 every server answered, 1 at least one did not, 2 a bad configuration.

Examples:
  $ agentry mcp list
  $ agentry mcp list --json | jq '.[] | select(.status == "failed")'
  $ agentry mcp list --mcp-config .mcp.json
`;

/** `--mcp-config`, repeatable, as `run`, `chat` and `mcp list` take it. */
export function mcpConfigOption(): Option {
  return new Option(
    "--mcp-config <file-or-json>",
    'more MCP servers: a JSON file or string, { "mcpServers": { name: { "command": …, "args": […] } } } as in Claude Code\'s .mcp.json (repeatable)',
  ).argParser((value: string, previous: string[] | undefined) => [...(previous ?? []), value]);
}

/** Adds `agentry mcp list`; the MCP client loads only when it runs. */
export function registerMcpCommand(program: Command, deps: { io: CliIo; result: ProgramResult }): Command {
  const mcp = program
    .command("mcp")
    .summary("list the MCP servers a run would start, and their tools")
    .description(
      "Show the MCP (Model Context Protocol) servers a run starts and the tools they give the agent.",
    )
    .addHelpText("after", MCP_HELP);
  mcp
    .command("list")
    .summary("start each configured MCP server once and list its tools")
    .description(
      "Start each configured MCP server, list its tools as the agent sees them (mcp__<server>__<tool>), " +
        "then stop it. A server that fails says why.",
    )
    .addOption(new Option("-C, --cwd <dir>", "workspace directory (default: the current directory)"))
    .addOption(mcpConfigOption())
    .option("--json", "print JSON for scripts")
    .action(async (options: McpListOptions) => {
      const { mcpListCommand } = await import("./mcp-list.ts");
      deps.result.exitCode = await mcpListCommand(options, deps.io);
    });
  return mcp;
}
