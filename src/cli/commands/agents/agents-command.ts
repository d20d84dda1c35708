import type { Command } from "commander";
import { type CommandDeps, lazyAction } from "../command-deps.ts";
import { cwdOption, jsonOption } from "../options.ts";

const AGENTS_HELP = `
Formats: agentry and AgentScope front matter (.agentry/agents, subagents/), Claude Code
(.claude/agents), OpenCode (.opencode/agent(s)) and Codex TOML roles (.codex/agents).
Problems in a file never stop a run: the file is read leniently or skipped, and
\`agentry agents check\` says what and why. See docs/agent-files.md.

Examples:
  $ agentry agents list
  $ agentry agents show explore
  $ agentry agents check --json | jq '.diagnostics[] | select(.severity == "error")'
  $ agentry agents list --agents '{"reviewer": {"description": "Reviews diffs", "prompt": "…"}}'
`;

/** Adds `agentry agents list|show|check`; definitions are loaded only when one runs. */
export function registerAgentsCommand(program: Command, deps: CommandDeps): Command {
  const agents = program
    .command("agents")
    .summary("list, show and check agent definitions")
    .description(
      "List, show and check the subagents a run can delegate to. Agents come from the built-ins " +
        "(general-purpose, explore, plan, review), your home (~/.agentry/agents, ~/.claude/agents, " +
        "~/.config/opencode/agent(s), ~/.codex/agents) and the project (.agentry/agents, subagents/, " +
        ".claude/agents, .opencode/agent(s), .codex/agents). --agents JSON wins over project files, which " +
        "win over user files, which win over built-ins.",
    )
    .addHelpText("after", AGENTS_HELP);
  const common = (command: Command) =>
    command
      .addOption(cwdOption())
      .option("--agents <json>", "extra agents as JSON, as for agentry run")
      .addOption(jsonOption());
  common(
    agents
      .command("list")
      .summary("list the agents a run can delegate to")
      .description(
        "List the agents a run can delegate to: name, description, source, mode, model and tools.",
      ),
  ).action(lazyAction(deps, async () => (await import("./agents.ts")).agentsListCommand));
  common(
    agents
      .command("show")
      .summary("show one agent's definition and prompt")
      .description(
        "Show one agent's normalized definition (tools, permission, model, workspace …) and its prompt.",
      )
      .argument("<name>", "agent name (see: agentry agents list)"),
  ).action(lazyAction(deps, async () => (await import("./agents.ts")).agentsShowCommand));
  common(
    agents
      .command("check")
      .summary("print every problem found in agent files")
      .description(
        "Print every problem found in agent files (file:line: severity: what is wrong → what was done " +
          "about it). With --online, also fetch the card of every remote (A2A) agent. Exit 0 when every " +
          "file loaded (warnings allowed) and every card was read, 1 when a file could not be loaded or a " +
          "card could not be read, 2 on invalid --agents JSON.",
      )
      .option("--online", "also fetch and read the card of every remote (A2A) agent"),
  ).action(lazyAction(deps, async () => (await import("./agents.ts")).agentsCheckCommand));
  return agents;
}
