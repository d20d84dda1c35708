import { cp, mkdir, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { discoverSkills } from "../../src/skills/discover-skills.ts";
import { skillTool } from "../../src/skills/skill-tool.ts";
import { nodeOperations } from "../../src/tools/node-operations.ts";
import type { ToolContext } from "../../src/tools/tool.ts";
import { tempDir } from "../support/temp-dir.ts";

const PUBLISHED = fileURLToPath(new URL("./fixtures/anthropics-skills/", import.meta.url));

async function write(path: string, text: string) {
  await mkdir(join(path, ".."), { recursive: true });
  await writeFile(path, text);
}

describe("finding skills", () => {
  it("reads every folder with a SKILL.md, the project's over the user's, loud about what it cannot use", async () => {
    const project = await tempDir("agentry-skills-project-");
    const home = await tempDir("agentry-skills-home-");
    await cp(join(PUBLISHED, "internal-comms"), join(project, ".claude", "skills", "internal-comms"), {
      recursive: true,
    });
    await write(
      join(project, ".agents", "skills", "no-description", "SKILL.md"),
      "---\nname: no-description\n---\nBody.\n",
    );
    await write(
      join(project, ".opencode", "skill", "Odd Name", "SKILL.md"),
      "---\ndescription: Odd.\n---\nBody.\n",
    );
    await write(
      join(home, ".claude", "skills", "internal-comms", "SKILL.md"),
      "---\nname: internal-comms\ndescription: Mine.\n---\n",
    );
    await write(
      join(home, ".agentry", "skills", "git-helper", "SKILL.md"),
      "---\nname: git-helper\ndescription: Git chores.\nallowed-tools: Read, Bash(git diff:*) Grep\n---\nUse git.\n",
    );
    await mkdir(join(project, ".claude", "skills", "not-a-skill"), { recursive: true });
    const { skills, diagnostics } = await discoverSkills(project, home);
    expect(skills.map((skill) => [skill.name, skill.source.kind, skill.source.label])).toEqual([
      ["internal-comms", "project", ".claude/skills"],
      ["Odd Name", "project", ".opencode/skill"],
      ["git-helper", "user", "~/.agentry/skills"],
    ]);
    expect(skills[2]?.allowedTools).toEqual(["Read", "Bash(git diff:*)", "Grep"]);
    const said = diagnostics.map((d) => `${d.severity}: ${d.message} → ${d.action}`);
    expect(said).toEqual(
      expect.arrayContaining([
        "error: no description: the model picks a skill by its description → skipped the skill",
        'warning: no name → used the folder name "Odd Name"',
        `warning: "Odd Name" is not lower-case letters, digits and hyphens (the format's rule) → kept it`,
        `info: skill "internal-comms" is also in ${join(project, ".claude", "skills", "internal-comms", "SKILL.md")} → kept the first one`,
      ]),
    );
  });
});

describe("the skill tool", () => {
  const context = (workspace: string): ToolContext => ({
    workspace,
    ops: nodeOperations,
    signal: new AbortController().signal,
    ask: async () => {},
    progress: () => {},
    emit: () => {},
    agent: { path: ["main"], name: "main", sessionId: "s", depth: 0 },
    toolCallId: "t",
  });

  it("reads a bundled file of a skill outside the workspace, and nothing outside the skill", async () => {
    const project = await tempDir("agentry-skills-project-");
    const home = await tempDir("agentry-skills-home-");
    await cp(join(PUBLISHED, "theme-factory"), join(home, ".claude", "skills", "theme-factory"), {
      recursive: true,
    });
    await write(join(home, "secret.txt"), "do not read");
    await symlink(join(home, "secret.txt"), join(home, ".claude", "skills", "theme-factory", "leak.md"));
    const { skills } = await discoverSkills(project, home);
    const tool = skillTool(skills);
    const ctx = context(project);
    const loaded = String(await tool?.execute({ skill: "theme-factory" }, ctx));
    expect(loaded).toContain(
      `Base directory for this skill: ${join(home, ".claude", "skills", "theme-factory")}`,
    );
    expect(loaded).toContain('read one with skill({"skill": "theme-factory", "file": "<path>"})');
    expect(
      String(await tool?.execute({ skill: "theme-factory", file: "themes/golden-hour.md" }, ctx)),
    ).toContain("# Golden Hour");
    await expect(tool?.execute({ skill: "theme-factory", file: "../../../secret.txt" }, ctx)).rejects.toThrow(
      "is not a file of skill",
    );
    await expect(tool?.execute({ skill: "theme-factory", file: "leak.md" }, ctx)).rejects.toThrow(
      "is not a file of skill",
    );
    await expect(tool?.execute({ skill: "nope" }, ctx)).rejects.toThrow(
      'There is no skill "nope". Skills: theme-factory.',
    );
  });
});
