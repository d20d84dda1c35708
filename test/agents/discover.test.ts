import { cp, mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { hasErrors } from "../../src/agents/diagnostics.ts";
import { loadAgentDefinitions } from "../../src/agents/discover.ts";
import { tempDir } from "../support/temp-dir.ts";
import { fixturePath } from "./fixtures.ts";

let root: string;
let project: string;
let home: string;

beforeEach(async () => {
  root = await tempDir("agentry-discover-");
  project = join(root, "project");
  home = join(root, "home");
  await mkdir(project, { recursive: true });
  await mkdir(home, { recursive: true });
});

async function write(path: string, text: string): Promise<void> {
  await mkdir(join(path, ".."), { recursive: true });
  await writeFile(path, text);
}

const agent = (name: string, description: string): string =>
  `---\nname: ${name}\ndescription: ${description}\n---\nPrompt of ${name}.\n`;

async function copyFixtureProject(): Promise<void> {
  await cp(fixturePath("claude"), join(project, ".claude/agents"), { recursive: true });
  await cp(fixturePath("opencode"), join(project, ".opencode/agent"), { recursive: true });
  await cp(fixturePath("codex"), join(project, ".codex/agents"), { recursive: true });
  await cp(fixturePath("agentry"), join(project, ".agentry/agents"), { recursive: true });
  await cp(fixturePath("agentscope"), join(project, "subagents"), { recursive: true });
}

describe("loadAgentDefinitions", () => {
  it("loads the understandable files of every format and reports the rest with file and reason", async () => {
    await copyFixtureProject();
    const { definitions, diagnostics } = await loadAgentDefinitions({ projectDir: project, homeDir: home });
    const names = definitions.map((d) => d.name);
    expect(names).toEqual(
      expect.arrayContaining([
        "backlog-groomer",
        "code-reviewer",
        "web-only",
        "reviewer",
        "only-trues",
        "code_explorer",
        "researcher",
        "analyst",
        "general-purpose",
        "explore",
        "plan",
        "review",
      ]),
    );
    const errors = diagnostics.filter((d) => d.severity === "error");
    expect(errors.map((d) => d.file.slice(project.length + 1)).sort()).toEqual([
      ".claude/agents/bad-tools-type.md",
      ".claude/agents/no-description.md",
      ".claude/agents/no-front-matter.md",
      ".claude/agents/unclosed.md",
      ".codex/agents/bad.toml",
      ".opencode/agent/bad-permission.md",
    ]);
    expect(hasErrors(diagnostics)).toBe(true);
    expect(definitions.find((d) => d.name === "web-only")?.tools).toEqual([]);
  });

  it("keeps the first of two same-named files in one source and warns naming both", async () => {
    await copyFixtureProject();
    const { definitions, diagnostics } = await loadAgentDefinitions({ projectDir: project, homeDir: home });
    const winner = definitions.find((d) => d.name === "duplicate-agent");
    expect(winner?.description).toBe("The first of two files with the same name.");
    const first = join(project, ".claude/agents/duplicate-first.md");
    const second = join(project, ".claude/agents/duplicate-second.md");
    expect(diagnostics).toContainEqual({
      severity: "warning",
      file: second,
      message: `agent "duplicate-agent" is also defined in ${first}`,
      action: `kept ${first}; ignored this file`,
    });
  });

  it("reads a workspace folder's AGENTS.md as the prompt and warns when it is missing", async () => {
    await copyFixtureProject();
    const { definitions, diagnostics } = await loadAgentDefinitions({ projectDir: project, homeDir: home });
    expect(definitions.find((d) => d.name === "analyst")?.prompt).toContain("You are the analyst.");
    const missing = join(project, "subagents/missing-agents-md.md");
    expect(diagnostics.filter((d) => d.file === missing).map((d) => d.message)).toEqual([
      `the prompt file ${join(project, "nowhere/AGENTS.md")} is missing or unreadable`,
      "empty prompt",
    ]);
  });

  it("ranks project over user over built-in, with info diagnostics for overrides", async () => {
    await write(join(project, ".claude/agents/helper.md"), agent("helper", "project helper"));
    await write(join(home, ".claude/agents/helper.md"), agent("helper", "user helper"));
    await write(join(home, ".config/opencode/agents/explore.md"), "---\ndescription: my explore\n---\nMine.");
    await write(
      join(home, ".codex/agents/solo.toml"),
      'description = "user only"\ndeveloper_instructions = "x"\n',
    );
    const { definitions, diagnostics } = await loadAgentDefinitions({ projectDir: project, homeDir: home });
    const byName = new Map(definitions.map((d) => [d.name, d]));
    expect(byName.get("helper")?.description).toBe("project helper");
    expect(byName.get("explore")?.source).toMatchObject({ kind: "user", format: "opencode" });
    expect(byName.get("solo")?.source.kind).toBe("user");
    expect(byName.get("plan")?.source.kind).toBe("builtin");
    expect(diagnostics.filter((d) => d.severity !== "info")).toEqual([]);
    expect(diagnostics.map((d) => d.message)).toEqual(
      expect.arrayContaining([
        `the project agent "helper" (${join(project, ".claude/agents/helper.md")}) overrides this user one`,
        `the user agent "explore" (${join(home, ".config/opencode/agents/explore.md")}) overrides this builtin one`,
      ]),
    );
  });

  it("ranks folders within a source: .agentry over .claude", async () => {
    await write(join(project, ".claude/agents/x.md"), agent("same", "from claude"));
    await write(join(project, ".agentry/agents/x.md"), agent("same", "from agentry"));
    const { definitions, diagnostics } = await loadAgentDefinitions({ projectDir: project, homeDir: home });
    expect(definitions.find((d) => d.name === "same")?.description).toBe("from agentry");
    expect(diagnostics.filter((d) => d.severity === "warning")).toHaveLength(1);
  });

  it("skips runtime state folders, hidden folders and READMEs, and reads nested definitions", async () => {
    await write(join(project, ".agentry/agents/team/lead.md"), agent("lead", "team lead"));
    await write(
      join(project, ".agentry/agents/lead/workspace/notes.md"),
      agent("not-an-agent", "workspace file"),
    );
    await write(join(project, ".agentry/agents/main/tasks/t.md"), agent("also-not", "task state"));
    await write(join(project, ".claude/agents/.drafts/d.md"), agent("draft", "hidden folder"));
    await write(join(project, ".claude/agents/README.md"), "# About these agents\n");
    await write(join(project, "subagents/deep/nested.md"), agent("nested", "subagents/ is not recursive"));
    const { definitions, diagnostics } = await loadAgentDefinitions({
      projectDir: project,
      homeDir: home,
      includeBuiltins: false,
    });
    expect(definitions.map((d) => d.name)).toEqual(["lead"]);
    expect(diagnostics).toEqual([]);
  });

  it("reads each folder once when the project is the home directory", async () => {
    await write(join(home, ".claude/agents/a.md"), agent("a", "once"));
    const { definitions, diagnostics } = await loadAgentDefinitions({ projectDir: home, homeDir: home });
    expect(definitions.filter((d) => d.name === "a")).toHaveLength(1);
    expect(diagnostics).toEqual([]);
  });

  it("returns only the built-ins for an empty project", async () => {
    const { definitions, diagnostics } = await loadAgentDefinitions({ projectDir: project, homeDir: home });
    expect(definitions.map((d) => d.name).sort()).toEqual(["explore", "general-purpose", "plan", "review"]);
    expect(diagnostics).toEqual([]);
  });
});
