import type { Command } from "commander";
import { type CommandDeps, lazyAction } from "../command-deps.ts";
import { cwdOption, jsonOption } from "../options.ts";

const SKILLS_HELP = `
A skill is a folder with a SKILL.md (front matter name and description, then instructions) and the
files it bundles. Only each skill's name and description are in the agent's prompt; the agent loads
a skill's instructions with its skill tool when a task matches. See docs/skills.md.

Examples:
  $ agentry skills list
  $ agentry skills show pdf
`;

/** Adds `agentry skills list|show`; skills are read only when one runs. */
export function registerSkillsCommand(program: Command, deps: CommandDeps): Command {
  const skills = program
    .command("skills")
    .summary("list and show the skills the agent can load")
    .description(
      "List and show the skills (SKILL.md folders) the agent can load: the project's (.agentry/skills, " +
        ".claude/skills, .agents/skills, .opencode/skill(s)) over the user's (the same under ~, and " +
        "~/.codex/skills, ~/.config/opencode/skill(s)).",
    )
    .addHelpText("after", SKILLS_HELP);
  skills
    .command("list")
    .summary("list the skills the agent can load")
    .description("List every skill: name, description, where it was found, and problems reading them.")
    .addOption(cwdOption())
    .addOption(jsonOption())
    .action(lazyAction(deps, async () => (await import("./skills.ts")).skillsListCommand));
  skills
    .command("show")
    .summary("show one skill: its fields, files and instructions")
    .description("Show one skill: its front matter, the files it bundles and its instructions.")
    .argument("<name>", "skill name (see: agentry skills list)")
    .addOption(cwdOption())
    .addOption(jsonOption())
    .action(lazyAction(deps, async () => (await import("./skills.ts")).skillsShowCommand));
  return skills;
}
