import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { fixture, positions } from "./support.ts";

describe("loadInstructions", () => {
  it("reads the user's files, then the project's from the repository's top folder down to the workspace, in the documented order", async () => {
    const f = await fixture();
    const files: Array<[string, string]> = [
      ["home/.config/agentry/AGENTS.md", "U-AGENTRY"],
      ["home/.claude/CLAUDE.md", "U-CLAUDE"],
      ["home/.codex/AGENTS.md", "U-CODEX"],
      ["home/.config/opencode/AGENTS.md", "U-OPENCODE"],
      ["home/repo/AGENTS.md", "R-AGENTS"],
      ["home/repo/CLAUDE.md", "R-CLAUDE"],
      ["home/repo/.claude/CLAUDE.md", "R-DOT-CLAUDE"],
      ["home/repo/CLAUDE.local.md", "R-LOCAL"],
      ["home/repo/pkg/AGENTS.md", "W-AGENTS"],
      ["home/repo/pkg/CLAUDE.md", "W-CLAUDE"],
      ["home/repo/pkg/.claude/CLAUDE.md", "W-DOT-CLAUDE"],
      ["home/repo/pkg/CLAUDE.local.md", "W-LOCAL"],
    ];
    // Written in another order than they are read: the order is the loader's.
    for (const [path, marker] of [...files].reverse()) await f.write(path, `${marker}\n`);
    await f.write("home/repo/pkg/sub/AGENTS.md", "NESTED\n"); // below the workspace: not at start

    const loaded = await f.load();
    const markers = files.map(([, marker]) => marker);
    const at = positions(loaded.section, markers);
    expect(at.every((position) => position >= 0)).toBe(true);
    expect(at).toEqual([...at].sort((a, b) => a - b));
    expect(loaded.section).not.toContain("NESTED");
    expect(loaded.files.map((file) => file.label)).toEqual([
      "~/.config/agentry/AGENTS.md",
      "~/.claude/CLAUDE.md",
      "~/.codex/AGENTS.md",
      "~/.config/opencode/AGENTS.md",
      "../AGENTS.md",
      "../CLAUDE.md",
      "../.claude/CLAUDE.md",
      "../CLAUDE.local.md",
      "AGENTS.md",
      "CLAUDE.md",
      ".claude/CLAUDE.md",
      "CLAUDE.local.md",
    ]);
    expect(loaded.files.map((file) => file.scope)).toEqual([
      ...Array(4).fill("user"),
      ...Array(8).fill("project"),
    ]);
    expect(loaded.diagnostics).toEqual([]);
    // Each file in its own element, named by its label.
    expect(loaded.section).toContain('<instructions file="../AGENTS.md">\nR-AGENTS\n</instructions>');
  });

  it("sends nothing when there is no instruction file", async () => {
    const f = await fixture();
    const loaded = await f.load();
    expect(loaded).toMatchObject({ files: [], section: "", diagnostics: [] });
  });

  it("takes the user's agentry, OpenCode and Codex folders from XDG_CONFIG_HOME and CODEX_HOME", async () => {
    const f = await fixture();
    await f.write("home/xdg/agentry/AGENTS.md", "XDG-AGENTRY");
    await f.write("home/xdg/opencode/AGENTS.md", "XDG-OPENCODE");
    await f.write("home/codex-home/AGENTS.md", "CODEX-HOME");
    await f.write("home/.config/agentry/AGENTS.md", "NOT-READ");
    const loaded = await f.load({
      env: { XDG_CONFIG_HOME: join(f.home, "xdg"), CODEX_HOME: join(f.home, "codex-home") },
    });
    expect(loaded.files.map((file) => file.text.trim())).toEqual([
      "XDG-AGENTRY",
      "CODEX-HOME",
      "XDG-OPENCODE",
    ]);
  });

  it("reads Codex's AGENTS.override.md instead of AGENTS.md in the folder that has one", async () => {
    const f = await fixture();
    await f.write("home/repo/pkg/AGENTS.md", "PLAIN");
    await f.write("home/repo/pkg/AGENTS.override.md", "OVERRIDE");
    const loaded = await f.load();
    expect(loaded.files.map((file) => file.text.trim())).toEqual(["OVERRIDE"]);
  });

  it("uses the workspace as the project outside git", async () => {
    const f = await fixture();
    await f.write("outside/AGENTS.md", "ABOVE");
    await f.write("outside/ws/AGENTS.md", "HERE");
    const { loadInstructions } = await import("../../src/instructions/load-instructions.ts");
    const loaded = await loadInstructions({
      workspace: join(f.outside, "ws"),
      home: f.home,
      env: {},
      trusted: false,
    });
    expect(loaded.files.map((file) => file.text.trim())).toEqual(["HERE"]);
    expect(loaded.context.projectRoot).toBe(join(f.outside, "ws"));
  });

  it("reads a file linked from two places once, with the imports either place would read", async () => {
    const f = await fixture();
    await f.write("home/repo/pkg/CLAUDE.md", "SHARED\n@docs/extra.md\n");
    await f.write("home/repo/pkg/docs/extra.md", "EXTRA");
    await f.link("home/repo/pkg/AGENTS.md", "CLAUDE.md");
    const loaded = await f.load();
    expect(loaded.files.map((file) => file.label)).toEqual(["AGENTS.md", "docs/extra.md"]);
    expect(loaded.section.match(/SHARED/g)).toHaveLength(1);
  });

  it("refuses a project's file that is a link to a place outside the project, and says so", async () => {
    const f = await fixture();
    const secret = await f.write("outside/secret.txt", "SECRET");
    await f.link("home/repo/pkg/CLAUDE.md", secret);
    const loaded = await f.load({ trusted: true });
    expect(loaded.section).not.toContain("SECRET");
    expect(loaded.diagnostics).toEqual([
      `CLAUDE.md was not read: it leads to ${secret}, outside the project`,
    ]);
  });

  it("refuses a user's file that leads outside the home folder", async () => {
    const f = await fixture();
    const elsewhere = await f.write("outside/claude.md", "ELSEWHERE");
    await f.link("home/.claude/CLAUDE.md", elsewhere);
    const loaded = await f.load();
    expect(loaded.files).toEqual([]);
    expect(loaded.diagnostics[0]).toContain("outside your home folder and the project");
  });

  it("passes over empty files and refuses binary ones", async () => {
    const f = await fixture();
    await f.write("home/repo/pkg/AGENTS.md", "  \n");
    await f.write("home/repo/pkg/CLAUDE.md", "a\0b");
    const loaded = await f.load();
    expect(loaded.files).toEqual([]);
    expect(loaded.diagnostics).toEqual(["CLAUDE.md was not read: it is not a text file"]);
  });

  it("keeps in the context every real path it read, so nested files are never added twice", async () => {
    const f = await fixture();
    const agents = await f.write("home/repo/pkg/AGENTS.md", "A");
    const loaded = await f.load();
    expect([...loaded.context.loaded]).toEqual([agents]);
    expect(loaded.context).toMatchObject({ workspace: f.workspace, projectRoot: f.repo, home: f.home });
  });
});
