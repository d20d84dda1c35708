import type { Diagnostic } from "../agents/diagnostics.ts";

/** Where a skill was found: a repository's folder (its grants wait for trust) or the user's own. */
export interface SkillSource {
  kind: "project" | "user";
  /** The folder it was found in, as messages name it (`.claude/skills`, `~/.claude/skills`). */
  label: string;
}

/**
 * A skill (the open `SKILL.md` format): a folder whose `SKILL.md` has `name` and `description` front
 * matter and instructions after it, with whatever files it bundles. Only the name and description are
 * read up front; the instructions when the skill is loaded.
 */
export interface Skill {
  name: string;
  description: string;
  /** The skill's folder (absolute): bundled files' paths are relative to it. */
  dir: string;
  /** Its `SKILL.md` (absolute). */
  file: string;
  source: SkillSource;
  /** `allowed-tools`: tools the skill may use without asking, in Claude Code's rule spelling (`Bash(git:*)`). */
  allowedTools?: string[];
  license?: string;
  /** Claude Code's `disable-model-invocation: true`: only a person (or an agent file's `skills:`) loads it. */
  manualOnly?: boolean;
}

/** The skills of a workspace and what was wrong reading them. */
export interface LoadedSkills {
  skills: Skill[];
  diagnostics: Diagnostic[];
}
