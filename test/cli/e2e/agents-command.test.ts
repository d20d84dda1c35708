import { describe, expect, it } from "vitest";
import { makeWorkspace, runCli, type TestWorkspace } from "../support/cli-process.ts";

const REVIEWER = `---
name: reviewer
description: Reviews code: finds bugs
tools: Read, Grep, WebSearch
model: sonnet
---
You review code.
`;

let workspace: TestWorkspace;

describe("agentry agents", () => {
  it("lists built-ins and project files, with the tools each really gets", async () => {
    workspace = await makeWorkspace({ ".claude/agents/reviewer.md": REVIEWER });
    const result = await runCli(["agents", "list", "--json"], { cwd: workspace.dir, env: workspace.env });
    expect(result.code).toBe(0);
    const agents = JSON.parse(result.stdout) as Array<{ name: string; tools: string[] | null }>;
    expect(agents.map((a) => a.name)).toEqual(["explore", "general-purpose", "plan", "review", "reviewer"]);
    expect(agents.find((a) => a.name === "reviewer")?.tools).toEqual(["read", "grep"]);
  });

  it("shows one agent with its prompt, and names the known agents for an unknown one", async () => {
    workspace = await makeWorkspace({ ".claude/agents/reviewer.md": REVIEWER });
    const shown = await runCli(["agents", "show", "reviewer"], { cwd: workspace.dir, env: workspace.env });
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain("You review code.");
    const missing = await runCli(["agents", "show", "nobody"], { cwd: workspace.dir, env: workspace.env });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('No agent named "nobody". Known agents: explore, general-purpose');
  });

  it("check prints every problem with file and line and exits 1 on errors", async () => {
    workspace = await makeWorkspace({
      ".claude/agents/reviewer.md": REVIEWER,
      ".claude/agents/notes.md": "just some notes, no front matter\n",
      ".codex/agents/bad.toml": 'name = "bad\n',
    });
    const result = await runCli(["agents", "check"], { cwd: workspace.dir, env: workspace.env });
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/\.claude\/agents\/notes\.md: error: no front matter/);
    expect(result.stdout).toMatch(/\.codex\/agents\/bad\.toml(:\d+)?: error/);
    expect(result.stdout).toMatch(/\.claude\/agents\/reviewer\.md:4: info: .*WebSearch/);
    const json = await runCli(["agents", "check", "--json"], { cwd: workspace.dir, env: workspace.env });
    const parsed = JSON.parse(json.stdout) as { diagnostics: Array<{ severity: string; file: string }> };
    expect(parsed.diagnostics.filter((d) => d.severity === "error")).toHaveLength(2);
  });

  it("check exits 0 when every file loads", async () => {
    workspace = await makeWorkspace({ ".claude/agents/reviewer.md": REVIEWER });
    const result = await runCli(["agents", "check"], { cwd: workspace.dir, env: workspace.env });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("5 agents loaded.");
  });
});
