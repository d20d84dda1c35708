import type { Command } from "commander";
import { type CommandDeps, lazyAction } from "../command-deps.ts";
import { cwdOption, jsonOption, mcpConfigOption, trustProjectOption } from "../options.ts";

const MCP_HELP = `
Servers come from "mcpServers" in the config files and from --mcp-config (Claude Code's
.mcp.json works as is); their tools reach the model as mcp__<server>__<tool>. How to
configure them, and their permissions: docs/mcp.md.

Exit codes: 0 every server answered, 1 at least one did not, 2 a bad configuration.

Examples:
  $ agentry mcp list
  $ agentry mcp list --json | jq '.[] | select(.status == "failed")'
  $ agentry mcp list --mcp-config .mcp.json
`;

/** Adds `agentry mcp list`; the MCP client loads only when it runs. */
export function registerMcpCommand(program: Command, deps: CommandDeps): Command {
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
    .addOption(cwdOption())
    .addOption(mcpConfigOption())
    .addOption(trustProjectOption())
    .addOption(jsonOption())
    .action(lazyAction(deps, async () => (await import("./mcp-list.ts")).mcpListCommand));
  return mcp;
}
