import { readdir } from "node:fs/promises";
import { homedir } from "node:os";
import { join, relative } from "node:path";
import { formatDiagnostics } from "../../../agents/diagnostics.ts";
import { discoverSkills, readSkillBody } from "../../../skills/discover-skills.ts";
import type { Skill } from "../../../skills/skill.ts";
import { checkedWorkspace } from "../../config/check-config.ts";
import { didYouMean } from "../../config/did-you-mean.ts";
import { UsageError } from "../../errors.ts";
import { EXIT_CODES } from "../../exit-codes.ts";
import type { CliIo } from "../../io.ts";

export interface SkillsOptions {
  cwd?: string;
  json?: boolean;
}

/** `agentry skills list`: every skill the agent could load, and what was wrong reading the others. */
export async function skillsListCommand(options: SkillsOptions, io: CliIo): Promise<number> {
  const { workspace, loaded } = await skillsOf(options, io);
  if (options.json) {
    io.stdout.write(
      `${JSON.stringify({ skills: loaded.skills.map(summary), diagnostics: loaded.diagnostics })}\n`,
    );
    return EXIT_CODES.completed;
  }
  if (loaded.skills.length === 0)
    io.stdout.write("No skills installed (see docs/skills.md for where they go).\n");
  const width = Math.max(4, ...loaded.skills.map((skill) => skill.name.length));
  for (const skill of loaded.skills) {
    const facts = [
      skill.source.kind,
      relative(workspace, skill.dir).startsWith("..") ? skill.dir : relative(workspace, skill.dir),
      ...(skill.allowedTools === undefined ? [] : [`allowed-tools: ${skill.allowedTools.join(", ")}`]),
      ...(skill.manualOnly ? ["loaded by you or an agent file only"] : []),
    ];
    io.stdout.write(
      `${skill.name.padEnd(width)}  ${firstLine(skill.description)}\n${" ".repeat(width + 2)}${facts.join(" · ")}\n`,
    );
  }
  const problems = loaded.diagnostics.filter((d) => d.severity !== "info");
  if (problems.length > 0) io.stderr.write(`${formatDiagnostics(problems, { cwd: workspace })}\n`);
  return EXIT_CODES.completed;
}

/** `agentry skills show <name>`: one skill's fields, bundled files and instructions. */
export async function skillsShowCommand(name: string, options: SkillsOptions, io: CliIo): Promise<number> {
  const { loaded } = await skillsOf(options, io);
  const skill = loaded.skills.find((candidate) => candidate.name === name);
  if (skill === undefined) {
    const names = loaded.skills.map((candidate) => candidate.name);
    const suggestion = didYouMean(name, names);
    throw new UsageError(
      `No skill named "${name}".${suggestion ? ` Did you mean "${suggestion}"?` : ""} Skills: ${names.join(", ") || "none"}. See: agentry skills list`,
    );
  }
  const files = await bundledFiles(skill.dir);
  const body = await readSkillBody(skill);
  if (options.json) {
    io.stdout.write(`${JSON.stringify({ ...summary(skill), files, instructions: body })}\n`);
    return EXIT_CODES.completed;
  }
  const lines = [
    `name: ${skill.name}`,
    `source: ${skill.source.kind} (${skill.source.label})`,
    `file: ${skill.file}`,
    ...(skill.allowedTools === undefined ? [] : [`allowed-tools: ${skill.allowedTools.join(", ")}`]),
    ...(skill.license === undefined ? [] : [`license: ${skill.license}`]),
    `files: ${files.join(", ") || "none besides SKILL.md"}`,
    "description:",
    indent(skill.description),
    "instructions:",
    indent(body),
  ];
  io.stdout.write(`${lines.join("\n")}\n`);
  return EXIT_CODES.completed;
}

async function skillsOf(options: SkillsOptions, io: CliIo) {
  const workspace = await checkedWorkspace(options.cwd, io);
  return { workspace, loaded: await discoverSkills(workspace, io.env.HOME || homedir()) };
}

function summary(skill: Skill) {
  return {
    name: skill.name,
    description: skill.description,
    source: skill.source,
    dir: skill.dir,
    ...(skill.allowedTools === undefined ? {} : { allowedTools: skill.allowedTools }),
    ...(skill.license === undefined ? {} : { license: skill.license }),
  };
}

/** The files a skill bundles, relative to its folder (SKILL.md left out), at most 200. */
async function bundledFiles(dir: string, prefix = ""): Promise<string[]> {
  const found: string[] = [];
  const entries = await readdir(join(dir, prefix), { withFileTypes: true }).catch(() => []);
  for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    const path = prefix === "" ? entry.name : `${prefix}/${entry.name}`;
    if (entry.isDirectory()) found.push(...(await bundledFiles(dir, path)));
    else if (path !== "SKILL.md") found.push(path);
    if (found.length >= 200) break;
  }
  return found.slice(0, 200);
}

function firstLine(text: string): string {
  const line = text.split("\n")[0] ?? "";
  return line.length > 100 ? `${line.slice(0, 97)}...` : line;
}

function indent(text: string): string {
  return text
    .split("\n")
    .map((line) => `  ${line}`)
    .join("\n");
}
