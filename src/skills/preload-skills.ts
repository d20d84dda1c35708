import type { Hooks } from "../agent/hooks.ts";
import { readSkillBody } from "./discover-skills.ts";
import type { Skill } from "./skill.ts";

/**
 * An agent file's `skills:` (Claude Code's subagent field): those skills' instructions are in the
 * child's context from its first call, as system sections that stay the same on every call (the
 * prompt cache keeps them). Names that are no skill are said once to the child, so it does not look
 * for them.
 */
export function preloadedSkills(names: readonly string[], skills: readonly Skill[]): Hooks | undefined {
  if (names.length === 0) return undefined;
  let sections: Promise<string[]> | undefined;
  const load = async (): Promise<string[]> => {
    const found = names.flatMap((name) => skills.filter((skill) => skill.name === name));
    const missing = names.filter((name) => !skills.some((skill) => skill.name === name));
    const bodies = await Promise.all(
      found.map(async (skill) => {
        // A skill removed since it was found is said, not a failure of the child.
        const body = await readSkillBody(skill).catch(
          (error: NodeJS.ErrnoException) =>
            `(its SKILL.md could not be read: ${error.code ?? error.message})`,
        );
        return `<skill name="${skill.name}" base-directory="${skill.dir}">\n${body}\n</skill>`;
      }),
    );
    return [
      ...bodies,
      ...(missing.length === 0
        ? []
        : [`Skills your definition names but that are not installed: ${missing.join(", ")}.`]),
    ];
  };
  return {
    async beforeModelCall() {
      sections ??= load();
      return { systemSections: await sections };
    },
  };
}
