import type { Dirent } from "node:fs";
import { readdir, readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { type Diagnostic, diagnostic } from "../agents/diagnostics.ts";
import { parseFrontMatter } from "../agents/front-matter.ts";
import { splitOutsideParentheses } from "../text/split-outside-parentheses.ts";
import type { LoadedSkills, Skill, SkillSource } from "./skill.ts";

/** Skill folders, highest precedence first: the project's, then the user's; the first skill of a name wins. */
export function skillFolders(
  projectDir: string,
  homeDir: string,
): Array<{ dir: string; source: SkillSource }> {
  const project = [
    ".agentry/skills",
    ".claude/skills",
    ".agents/skills",
    ".opencode/skill",
    ".opencode/skills",
  ];
  const user = [
    ".agentry/skills",
    ".claude/skills",
    ".agents/skills",
    ".codex/skills",
    ".config/opencode/skill",
    ".config/opencode/skills",
  ];
  return [
    ...project.map((dir) => ({
      dir: join(projectDir, dir),
      source: { kind: "project" as const, label: dir },
    })),
    ...user.map((dir) => ({ dir: join(homeDir, dir), source: { kind: "user" as const, label: `~/${dir}` } })),
  ];
}

/** A SKILL.md past this size is not read (the format suggests keeping it under 500 lines). */
const MAX_SKILL_BYTES = 1024 * 1024;
/** The format's rule for a name: lower-case letters, digits and hyphens, at most 64. */
const SKILL_NAME = /^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/;

/**
 * Every skill of the workspace and the user: each folder of a skills folder that holds a `SKILL.md`.
 * Tolerant and loud, as agent files are: a skill without a description is skipped with an error (the
 * model picks skills by it); a name that differs from the folder or breaks the format's rule is a
 * warning; a name found twice keeps the first (project over user) with an info.
 */
export async function discoverSkills(projectDir: string, homeDir: string): Promise<LoadedSkills> {
  const skills: Skill[] = [];
  const diagnostics: Diagnostic[] = [];
  const seen = new Map<string, Skill>();
  for (const folder of skillFolders(projectDir, homeDir)) {
    for (const entry of await entries(folder.dir)) {
      const dir = join(folder.dir, entry);
      const file = join(dir, "SKILL.md");
      const read = await readSkill(file, dir, entry, folder.source);
      diagnostics.push(...read.diagnostics);
      const skill = read.skill;
      if (skill === undefined) continue;
      const earlier = seen.get(skill.name);
      if (earlier !== undefined) {
        diagnostics.push(
          diagnostic("info", file, `skill "${skill.name}" is also in ${earlier.file}`, "kept the first one"),
        );
        continue;
      }
      seen.set(skill.name, skill);
      skills.push(skill);
    }
  }
  return { skills, diagnostics };
}

/** The skill's instructions: its `SKILL.md` after the front matter, read now (it may have changed). */
export async function readSkillBody(skill: Skill): Promise<string> {
  const text = await readFile(skill.file, "utf8");
  return parseFrontMatter(text, skill.file).body;
}

async function entries(dir: string): Promise<string[]> {
  let found: Dirent[];
  try {
    found = await readdir(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  return found
    .filter((entry) => (entry.isDirectory() || entry.isSymbolicLink()) && !entry.name.startsWith("."))
    .map((entry) => entry.name)
    .sort();
}

async function readSkill(
  file: string,
  dir: string,
  folderName: string,
  source: SkillSource,
): Promise<{ skill?: Skill; diagnostics: Diagnostic[] }> {
  const info = await stat(file).catch(() => undefined);
  if (info === undefined || !info.isFile()) return { diagnostics: [] };
  if (info.size > MAX_SKILL_BYTES)
    return {
      diagnostics: [
        diagnostic("error", file, `SKILL.md is ${Math.round(info.size / 1024)} KiB`, "skipped the skill"),
      ],
    };
  const parsed = parseFrontMatter(await readFile(file, "utf8"), file);
  const diagnostics = [...parsed.diagnostics];
  if (diagnostics.some((problem) => problem.severity === "error")) return { diagnostics };
  const { data } = parsed;
  const description = typeof data.description === "string" ? data.description.trim() : "";
  if (description === "") {
    diagnostics.push(
      diagnostic(
        "error",
        file,
        "no description: the model picks a skill by its description",
        "skipped the skill",
      ),
    );
    return { diagnostics };
  }
  const named = typeof data.name === "string" && data.name.trim() !== "" ? data.name.trim() : undefined;
  const name = named ?? folderName;
  if (named === undefined)
    diagnostics.push(diagnostic("warning", file, "no name", `used the folder name "${folderName}"`));
  else if (named !== folderName)
    diagnostics.push(
      diagnostic(
        "info",
        file,
        `name "${named}" differs from its folder "${folderName}"`,
        `named it "${named}"`,
      ),
    );
  if (!SKILL_NAME.test(name))
    diagnostics.push(
      diagnostic(
        "warning",
        file,
        `"${name}" is not lower-case letters, digits and hyphens (the format's rule)`,
        "kept it",
      ),
    );
  const allowedTools = toolList(data["allowed-tools"]);
  const skill: Skill = {
    name,
    description,
    dir,
    file,
    source,
    ...(allowedTools === undefined ? {} : { allowedTools }),
    ...(typeof data.license === "string" ? { license: data.license } : {}),
    ...(data["disable-model-invocation"] === true ? { manualOnly: true } : {}),
  };
  return { skill, diagnostics };
}

/** `allowed-tools`: a list, or a string of names separated by spaces or commas (`Read, Bash(git:*)`). */
function toolList(value: unknown): string[] | undefined {
  if (Array.isArray(value)) {
    const names = value.filter((item): item is string => typeof item === "string" && item.trim() !== "");
    return names.length > 0 ? names.map((name) => name.trim()) : undefined;
  }
  if (typeof value !== "string" || value.trim() === "") return undefined;
  // Split on commas and on spaces outside parentheses (`Bash(git diff:*)` keeps its space).
  return splitOutsideParentheses(value, (char) => char === "," || /\s/.test(char))
    .map((name) => name.trim())
    .filter((name) => name !== "");
}
