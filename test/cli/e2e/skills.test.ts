import { existsSync } from "node:fs";
import { cp, mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import {
  CHILD_MARK,
  type WireMessage,
  wireMessages,
  wireSystem,
  wireTexts,
} from "../../subagents/support/subagent-harness.ts";
import { type ModelServer, type RecordedRequest, startModelServer } from "../../support/model-server.ts";
import { makeWorkspace, runCli, type TestWorkspace } from "../support/cli-process.ts";
import { providerEnv } from "../support/provider-env.ts";

// Acceptance of issue 23 (skills): skills published in anthropics/skills, installed where Claude Code
// looks for them, listed, loaded by the model's call, their bundled file read; the prompt grows by
// their names and descriptions only.

const PUBLISHED = fileURLToPath(new URL("../../skills/fixtures/anthropics-skills/", import.meta.url));
const THEME_BODY_LINE =
  "To apply consistent, professional styling to presentation slide decks, use this skill.";
const OCEAN = "**Deep Navy**: `#1a2332` - Primary background color";

let server: ModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function withPublishedSkills(): Promise<TestWorkspace> {
  const ws = await makeWorkspace();
  for (const name of ["internal-comms", "theme-factory"])
    await cp(join(PUBLISHED, name), join(ws.dir, ".claude", "skills", name), { recursive: true });
  return ws;
}

const env = (ws: TestWorkspace) => ({ ...ws.env, ...providerEnv(server as ModelServer, "anthropic") });
const lastTexts = (request: RecordedRequest | undefined) =>
  wireTexts(wireMessages(request?.body ?? {}).at(-1) as WireMessage).join("\n");
const skillToolOf = (request: RecordedRequest | undefined) =>
  ((request?.body.tools ?? []) as Array<{ name: string; description: string }>).find(
    (tool) => tool.name === "skill",
  );

describe("skills from anthropics/skills", () => {
  it("are listed with where they were found", async () => {
    const ws = await withPublishedSkills();
    const result = await runCli(["skills", "list"], { cwd: ws.dir, env: ws.env });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(
      /internal-comms\s+A set of resources to help me write all kinds of internal/,
    );
    expect(result.stdout).toMatch(/theme-factory\s+Toolkit for styling artifacts with a theme/);
    expect(result.stdout).toContain("project · .claude/skills/theme-factory");
    const shown = await runCli(["skills", "show", "theme-factory"], { cwd: ws.dir, env: ws.env });
    expect(shown.stdout).toContain("themes/ocean-depths.md");
    expect(shown.stdout).toContain(THEME_BODY_LINE);
  });

  it("are loaded by the model's skill call, and their bundled file is read with the read tool", async () => {
    const ws = await withPublishedSkills();
    server = await startModelServer([
      { toolCalls: [{ name: "skill", args: { skill: "theme-factory" } }] },
      {
        toolCalls: [{ name: "read", args: { path: ".claude/skills/theme-factory/themes/ocean-depths.md" } }],
      },
      { text: "Ocean Depths: navy and teal." },
    ]);
    const result = await runCli(["run", "Style my deck with the ocean theme"], { cwd: ws.dir, env: env(ws) });
    expect(result.code, result.stderr).toBe(0);
    const [first, second, third] = server.requests;
    // Before it is loaded, the model sees its name and description only.
    expect(skillToolOf(first)?.description).toContain("- theme-factory: Toolkit for styling artifacts");
    expect(JSON.stringify(first?.body)).not.toContain(THEME_BODY_LINE);
    // The call returns its instructions and where its files are.
    const loaded = lastTexts(second);
    expect(loaded).toContain("Base directory for this skill: .claude/skills/theme-factory");
    expect(loaded).toContain(THEME_BODY_LINE);
    expect(lastTexts(third)).toContain(OCEAN);
  });

  it("cost the prompt their names and descriptions only: 20 installed skills measured at the wire", async () => {
    const sizes: number[] = [];
    let namesAndDescriptions = 0;
    for (const count of [0, 1, 20]) {
      const ws = await makeWorkspace();
      for (let i = 0; i < count; i++) {
        const name = `skill-${String(i).padStart(2, "0")}`;
        const description = `Does task number ${i} the way this team likes it; use it for task ${i}.`;
        if (count === 20 && i > 0) namesAndDescriptions += name.length + description.length;
        // A long body and a bundled file that must stay out of the prompt until loaded.
        const body = `# ${name}\n\n${"Step: do the careful thing, then check it. ".repeat(400)}`;
        await writeFile(
          join(await dir(ws, name), "SKILL.md"),
          `---\nname: ${name}\ndescription: ${description}\n---\n${body}\n`,
        );
        await writeFile(join(ws.dir, ".claude", "skills", name, "reference.md"), "x".repeat(20_000));
      }
      server = await startModelServer([{ text: "ok" }]);
      const result = await runCli(["run", "hi"], { cwd: ws.dir, env: env(ws) });
      expect(result.code, result.stderr).toBe(0);
      const body = server.requests[0]?.body ?? {};
      sizes.push(JSON.stringify(body.system).length + JSON.stringify(body.tools).length);
      expect(JSON.stringify(body)).not.toContain("do the careful thing");
      await server.close();
      server = undefined;
    }
    const [none = 0, one = 0, twenty = 0] = sizes;
    // The skill tool itself is a fixed, small cost …
    expect(one - none).toBeLessThan(1200);
    // … and each further skill costs its name and description, plus a few characters of list markup.
    const perSkillMarkup = 8;
    expect(twenty - one).toBeLessThanOrEqual(namesAndDescriptions + 19 * perSkillMarkup);
    expect(twenty - one).toBeGreaterThanOrEqual(namesAndDescriptions);
  });

  it("an agent file's skills: are preloaded into that child, and agents show lists them", async () => {
    const ws = await withPublishedSkills();
    await ws.write(
      ".claude/agents/writer.md",
      "---\nname: writer\ndescription: Writes internal updates.\nskills: [internal-comms]\n---\nYou write updates.\n",
    );
    const show = await runCli(["agents", "show", "writer"], { cwd: ws.dir, env: ws.env });
    expect(show.stdout).toMatch(/skills: .*internal-comms/);
    server = await startModelServer((request) => {
      if (wireSystem(request.body).includes(CHILD_MARK)) return { text: "3P update written" };
      return wireMessages(request.body).length === 1
        ? {
            toolCalls: [
              { name: "task", args: { description: "write", prompt: "3P update", subagent_type: "writer" } },
            ],
          }
        : { text: "done" };
    });
    const result = await runCli(["run", "write our 3P update"], { cwd: ws.dir, env: env(ws) });
    expect(result.code, result.stderr).toBe(0);
    const child = server.requests.find((request) => wireSystem(request.body).includes(CHILD_MARK));
    expect(wireSystem(child?.body ?? {})).toContain("## When to use this skill");
    const root = server.requests[0];
    expect(wireSystem(root?.body ?? {})).not.toContain("## When to use this skill");
  });
});

describe("a skill's allowed-tools", () => {
  const skill = (allowed: string) =>
    `---\nname: toucher\ndescription: Touches files.\nallowed-tools: ${allowed}\n---\nRun touch on the file you are given.\n`;
  const touchRun = (ws: TestWorkspace) => runCli(["run", "touch made.txt"], { cwd: ws.dir, env: env(ws) });
  const script = () =>
    startModelServer([
      { toolCalls: [{ name: "skill", args: { skill: "toucher" } }] },
      { toolCalls: [{ name: "bash", args: { command: "touch made.txt" } }] },
      { text: "done" },
    ]);

  it("from the user's own skill: once loaded, the tools it names run without asking", async () => {
    const ws = await makeWorkspace();
    await mkdir(join(ws.home, ".claude", "skills", "toucher"), { recursive: true });
    await writeFile(join(ws.home, ".claude", "skills", "toucher", "SKILL.md"), skill("Bash(touch:*)"));
    server = await script();
    const result = await touchRun(ws);
    expect(result.code, result.stderr).toBe(0);
    expect(lastTexts(server.requests[1])).toContain("It may use without asking: Bash(touch:*)");
    expect(lastTexts(server.requests[2])).not.toContain("needs approval");
    expect(existsSync(join(ws.dir, "made.txt"))).toBe(true);
  });

  it("from a repository not trusted: granted nothing, and said so", async () => {
    const ws = await makeWorkspace();
    await ws.write(".claude/skills/toucher/SKILL.md", skill("Bash(touch:*)"));
    server = await script();
    const result = await touchRun(ws);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain('skill "toucher" allowed-tools Bash(touch:*)');
    expect(lastTexts(server.requests[1])).toContain("were not granted: the folder is not trusted");
    expect(lastTexts(server.requests[2])).toContain("needs approval and no one can approve it");
  });
});

async function dir(ws: TestWorkspace, name: string): Promise<string> {
  const path = join(ws.dir, ".claude", "skills", name);
  await mkdir(path, { recursive: true });
  return path;
}
