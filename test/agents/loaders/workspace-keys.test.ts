import { describe, expect, it } from "vitest";
import type { AgentFormat } from "../../../src/agents/definition.ts";
import type { Diagnostic } from "../../../src/agents/diagnostics.ts";
import { loadAgentFile } from "../../../src/agents/loaders/load-agent-file.ts";

/**
 * Where a child works: `workspace` (agentry, AgentScope) and Claude Code's `isolation`. A value agentry
 * cannot read fails the file, for running the child in the parent's directory instead of its own would
 * let it change the parent's files.
 */

/** An agent file named w with these front matter lines; the first of them is on line 3. */
function load(lines: string, format: AgentFormat = "agentry", path = "/p/.agentry/agents/w.md") {
  const text = `---\ndescription: Works apart.\n${lines}\nname: w\n---\nWork.\n`;
  const { definition, diagnostics, promptFile } = loadAgentFile(text, path, { format });
  return { workspace: definition?.workspace, promptFile, said: asLines(diagnostics) };
}

function asLines(diagnostics: readonly Diagnostic[]): string[] {
  return diagnostics.map((d) => `${d.severity} (line ${d.line}): ${d.message} → ${d.action}`);
}

describe("workspace", () => {
  it.each([
    ["a bare mode", "workspace: worktree", { mode: "worktree" }],
    ["a mode in a map", "workspace: { mode: shared }", { mode: "shared" }],
    ["a path alone as isolated", "workspace: { path: desk }", { mode: "isolated", path: "desk" }],
    [
      "a path without the spaces around it",
      'workspace: { mode: isolated, path: " desk " }',
      { mode: "isolated", path: "desk" },
    ],
  ])("reads %s", (_behaviour, line, workspace) => {
    expect(load(line)).toMatchObject({ workspace, said: [] });
  });

  it.each([
    ["a number", "workspace: 5", "workspace must be a mode or { mode, path }"],
    ["a list", "workspace: [isolated]", "workspace must be a mode or { mode, path }"],
    [
      "a map with neither mode nor path",
      "workspace: {}",
      "workspace.mode must be one of shared, isolated, worktree",
    ],
    [
      "a mode that is not a word",
      "workspace: { mode: 5 }",
      "workspace.mode must be one of shared, isolated, worktree",
    ],
    [
      "a path that is a number",
      "workspace: { mode: isolated, path: 5 }",
      "workspace.path must be a folder path",
    ],
    ["a blank path", 'workspace: { mode: isolated, path: "  " }', "workspace.path must be a folder path"],
  ])("fails the file for %s", (_behaviour, line, message) => {
    expect(load(line)).toEqual({
      workspace: undefined,
      promptFile: undefined,
      said: [`error (line 3): ${message} → skipped the file`],
    });
  });

  it("warns about a key it does not know in the map, at the workspace line, and keeps the rest", () => {
    expect(load("workspace: { mode: shared, size: big, colour: red }")).toMatchObject({
      workspace: { mode: "shared" },
      said: [
        "warning (line 3): workspace.size, workspace.colour: unknown key → ignored workspace.size, workspace.colour",
      ],
    });
  });

  it.each([
    ["a limit", "workspace: { mode: isolated, readOnly: true }", "readOnly"],
    ["a network list", "workspace: { mode: isolated, network: [] }", "network"],
    ["a tool switched off", "workspace: { mode: isolated, write: false }", "write"],
  ])("fails the file for %s put inside the map rather than dropping it", (_behaviour, line, inner) => {
    expect(load(line).said).toEqual([
      `error (line 3): workspace.${inner} looks like it limits the agent, but a workspace holds only mode and path; ignoring it could give the agent more than the file allows (make it a key of its own, or remove it) → skipped the file`,
    ]);
  });

  it("takes the prompt from AGENTS.md in the path's folder, beside the file without a project folder", () => {
    expect(load("workspace: { path: desk }", "agentscope", "/p/subagents/w.md").promptFile).toBe(
      "/p/subagents/desk/AGENTS.md",
    );
  });
});

describe("isolation (Claude Code)", () => {
  it.each(["claude", "agentry"] as const)("reads worktree as a worktree workspace in a %s file", (format) => {
    expect(load("isolation: worktree", format)).toMatchObject({ workspace: { mode: "worktree" }, said: [] });
  });

  it.each([
    ["another mode", "isolation: isolated"],
    ["true", "isolation: true"],
  ])("fails the file for %s", (_behaviour, line) => {
    expect(load(line, "claude").said).toEqual([
      'error (line 3): isolation must be "worktree" → skipped the file',
    ]);
  });
});
