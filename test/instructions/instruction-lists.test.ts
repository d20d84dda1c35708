import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { fixture, positions } from "./support.ts";

describe("instructions lists", () => {
  it("reads paths and globs relative to the file that names them, after the fixed places of their scope", async () => {
    const f = await fixture();
    await f.write("home/.claude/CLAUDE.md", "USER-CLAUDE");
    await f.write("home/.config/agentry/rules/user.md", "USER-LISTED");
    await f.write("home/repo/pkg/AGENTS.md", "PROJECT-AGENTS");
    await f.write("home/repo/pkg/.agentry/rules/b.md", "GLOB-B");
    await f.write("home/repo/pkg/.agentry/rules/a.md", "GLOB-A");
    await f.write("home/repo/pkg/.agentry/rules/deep/c.md", "NOT-MATCHED");
    await f.write("home/repo/pkg/CONTRIBUTING.md", "CONTRIBUTING");
    const loaded = await f.load({
      lists: [
        {
          patterns: ["../CONTRIBUTING.md", "rules/*.md"],
          baseDir: join(f.workspace, ".agentry"),
          source: ".agentry/config.json",
        },
        {
          patterns: ["rules/user.md"],
          baseDir: join(f.home, ".config", "agentry"),
          source: "~/.config/agentry/config.json",
        },
      ],
    });
    const markers = ["USER-CLAUDE", "USER-LISTED", "PROJECT-AGENTS", "CONTRIBUTING", "GLOB-A", "GLOB-B"];
    const at = positions(loaded.section, markers);
    expect(at.every((position) => position >= 0)).toBe(true);
    expect(at).toEqual([...at].sort((a, b) => a - b));
    expect(loaded.section).not.toContain("NOT-MATCHED");
    expect(loaded.files.find((file) => file.label === "CONTRIBUTING.md")?.origin).toEqual({
      kind: "list",
      source: ".agentry/config.json",
    });
    expect(loaded.diagnostics).toEqual([]);
  });

  it("says what a list names that it cannot use: a URL, a missing file, a glob matching nothing, a file outside the project", async () => {
    const f = await fixture();
    const outside = await f.write("outside/rules.md", "OUTSIDE");
    const loaded = await f.load({
      lists: [
        {
          patterns: ["https://example.com/rules.md", "missing.md", "docs/*.md", outside],
          baseDir: f.workspace,
          source: "opencode.json",
        },
      ],
    });
    expect(loaded.files).toEqual([]);
    expect(loaded.diagnostics).toEqual([
      'opencode.json: instructions "https://example.com/rules.md" is a URL: instructions are read from files only, never fetched',
      'opencode.json: instructions "missing.md" was not found',
      'opencode.json: instructions "docs/*.md" matched no file',
      `opencode.json: instructions "${outside}" was not read: ${outside} is outside the project`,
    ]);
  });

  it("gives a glob only the files the scope may read: a link out of the project is left out", async () => {
    const f = await fixture();
    const secret = await f.write("outside/secret.md", "SECRET");
    await f.write("home/repo/pkg/rules/ok.md", "OK");
    await f.link("home/repo/pkg/rules/leak.md", secret);
    const loaded = await f.load({
      lists: [{ patterns: ["rules/**/*.md"], baseDir: f.workspace, source: "agentry.json" }],
    });
    expect(loaded.files.map((file) => file.label)).toEqual(["rules/ok.md"]);
  });
});

describe("the size cap", () => {
  it("keeps the files in order up to the cap, cuts the one that crosses it at a line end, leaves out the rest, and says so", async () => {
    const f = await fixture();
    await f.write("home/repo/AGENTS.md", `${"root line\n".repeat(30)}`); // 300 bytes
    await f.write("home/repo/pkg/AGENTS.md", `${"workspace line\n".repeat(20)}`); // 300 bytes
    await f.write("home/repo/pkg/CLAUDE.local.md", "LOCAL\n");
    const loaded = await f.load({ maxBytes: 400 });
    expect(loaded.files.map((file) => [file.label, file.truncated])).toEqual([
      ["../AGENTS.md", false],
      ["AGENTS.md", true],
    ]);
    expect(loaded.files[1]?.text).toBe("workspace line\n".repeat(6)); // 90 bytes: the whole lines within 100
    expect(loaded.section).toContain("[cut here: the instruction files' size cap]");
    expect(loaded.section).not.toContain("LOCAL");
    expect(loaded.diagnostics).toEqual([
      "the instruction files hold 606 bytes, over the 400 bytes cap: AGENTS.md was cut after 90 bytes; left out: CLAUDE.local.md",
    ]);
  });

  it("cuts a single file longer than the cap (32 KiB by default)", async () => {
    const f = await fixture();
    await f.write("home/repo/pkg/AGENTS.md", "x".repeat(40 * 1024));
    const loaded = await f.load();
    expect(loaded.files[0]?.text.length).toBe(32 * 1024);
    expect(loaded.files[0]?.truncated).toBe(true);
    expect(loaded.diagnostics).toEqual([
      "the instruction files hold 40.0 KB, over the 32.0 KB cap: AGENTS.md was cut after 32.0 KB",
    ]);
  });
});
