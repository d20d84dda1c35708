import { readFileSync } from "node:fs";
import { readFile, realpath } from "node:fs/promises";
import { isAbsolute, join, relative, sep } from "node:path";
import { z } from "zod";
import { type AnyTool, defineTool, ToolError } from "../tools/tool.ts";
import { readSkillBody } from "./discover-skills.ts";
import type { Skill } from "./skill.ts";
import type { SkillGrants } from "./skill-grants.ts";

const DESCRIPTION = readFileSync(new URL("./skill-tool.md", import.meta.url), "utf8").trim();

const schema = z.object({
  skill: z.string().min(1).describe("The skill's name."),
  args: z.string().optional().describe("What to apply it to, when the skill takes arguments."),
  file: z
    .string()
    .optional()
    .describe("A file the skill bundles, relative to its folder (instead of loading it)."),
});

/**
 * The `skill` tool (Claude Code's `Skill`): its description lists each skill the model may load, by
 * name and description only — the one place skills cost prompt, and a stable one (the list is fixed for
 * the session) —; a call returns the skill's instructions with its folder, so the files it bundles are
 * read with the normal tools, or through `file` for a skill outside the workspace. Undefined when no
 * skill may be loaded by the model.
 */
export function skillTool(skills: readonly Skill[], grants?: SkillGrants): AnyTool | undefined {
  const offered = skills.filter((skill) => skill.manualOnly !== true);
  if (offered.length === 0) return undefined;
  const list = offered.map((skill) => `- ${skill.name}: ${skill.description}`).join("\n");
  return defineTool({
    name: "skill",
    description: `${DESCRIPTION}\n\n<available_skills>\n${list}\n</available_skills>`,
    schema,
    readOnly: true,
    async execute(args, ctx) {
      const skill = offered.find((candidate) => candidate.name === args.skill);
      if (skill === undefined)
        throw new ToolError(
          `There is no skill "${args.skill}". Skills: ${offered.map((candidate) => candidate.name).join(", ")}.`,
        );
      if (args.file !== undefined) return readBundled(skill, args.file);
      const body = await readSkillBody(skill);
      const inWorkspace = isInside(skill.dir, ctx.workspace);
      const where = inWorkspace ? relative(ctx.workspace, skill.dir) || "." : skill.dir;
      const how = inWorkspace
        ? `Paths in it are relative to that folder: read ${where}/<path> with the read tool.`
        : `Paths in it are relative to that folder, outside the workspace: read one with skill({"skill": "${skill.name}", "file": "<path>"}).`;
      const granted = grants?.grant(ctx.agent.path, skill) ?? { kind: "none" as const };
      const lines = [
        `Loaded skill "${skill.name}". Base directory for this skill: ${where}`,
        how,
        ...(granted.kind === "granted" ? [`It may use without asking: ${granted.tools.join(", ")}.`] : []),
        ...(granted.kind === "withheld"
          ? [`Its allowed-tools (${granted.tools.join(", ")}) were not granted: the folder is not trusted.`]
          : []),
        ...(args.args === undefined ? [] : [`ARGUMENTS: ${args.args}`]),
        "",
        body,
      ];
      return lines.join("\n");
    },
  });
}

/** A file inside the skill's folder (its real path too: a link cannot lead out of it). */
async function readBundled(skill: Skill, file: string): Promise<string> {
  const root = await realpath(skill.dir);
  const target = await realpath(join(root, file)).catch(() => undefined);
  if (target === undefined || isAbsolute(file) || !isInside(target, root))
    throw new ToolError(
      `"${file}" is not a file of skill "${skill.name}" (paths are relative to its folder).`,
    );
  const text = await readFile(target, "utf8").catch((error: NodeJS.ErrnoException) => {
    throw new ToolError(`Cannot read ${file} of skill "${skill.name}": ${error.code ?? error.message}`);
  });
  return text;
}

function isInside(path: string, root: string): boolean {
  const rel = relative(root, path);
  return rel === "" || (!rel.startsWith(`..${sep}`) && rel !== ".." && !isAbsolute(rel));
}
