import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { importSpecs } from "../../src/instructions/import-specs.ts";
import { fixture, positions } from "./support.ts";

describe("importSpecs", () => {
  it("finds @paths at the start of a line or after white space, without trailing punctuation", () => {
    const text = [
      "See @README.md and @docs/setup.md.",
      "@~/notes/me.md",
      "mail me at someone@example.com",
      "a path with a space: @my\\ notes.md",
      "(@wrapped.md)",
    ].join("\n");
    expect(importSpecs(text)).toEqual(["README.md", "docs/setup.md", "~/notes/me.md", "my notes.md"]);
  });

  it("leaves code spans and fenced code blocks alone", () => {
    const text = [
      "Run `npm i @types/node` then read @real.md",
      "``a ` @in-span.md``",
      "```sh",
      "@in-fence.md",
      "```",
      "~~~~",
      "@in-tilde-fence.md",
      "```",
      "@still-in-tilde.md",
      "~~~~",
      "@after.md",
    ].join("\n");
    expect(importSpecs(text)).toEqual(["real.md", "after.md"]);
  });
});

describe("CLAUDE.md imports", () => {
  it("reads imports relative to the importing file, each after its importer, five levels deep; a sixth is refused with a diagnostic", async () => {
    const f = await fixture();
    await f.write("home/repo/pkg/CLAUDE.md", "TOP\n@docs/l1.md\n");
    for (let level = 1; level <= 6; level++)
      await f.write(`home/repo/pkg/docs/l${level}.md`, `LEVEL-${level}\n@l${level + 1}.md\n`);
    const loaded = await f.load();
    const markers = ["TOP", "LEVEL-1", "LEVEL-2", "LEVEL-3", "LEVEL-4", "LEVEL-5"];
    const at = positions(loaded.section, markers);
    expect(at.every((position) => position >= 0)).toBe(true);
    expect(at).toEqual([...at].sort((a, b) => a - b));
    expect(loaded.section).not.toContain("LEVEL-6");
    expect(loaded.diagnostics).toEqual([
      "docs/l5.md: import @l6.md was not read: imports go 5 levels deep at most",
    ]);
    expect(loaded.files.at(-1)?.origin).toEqual({
      kind: "import",
      from: "docs/l4.md",
      root: "CLAUDE.md",
      depth: 5,
    });
  });

  it("refuses an import outside the project, with a diagnostic naming it", async () => {
    const f = await fixture();
    const secret = await f.write("outside/secret.md", "OUTSIDE-SECRET");
    await f.write("home/repo/pkg/CLAUDE.md", `TOP\n@../../../outside/secret.md\n@${secret}\n`);
    const loaded = await f.load({ trusted: true });
    expect(loaded.section).toContain("TOP");
    expect(loaded.section).not.toContain("OUTSIDE-SECRET");
    expect(loaded.diagnostics).toEqual([
      `CLAUDE.md: import @../../../outside/secret.md was not read: ${secret} is outside the project`,
      `CLAUDE.md: import @${secret} was not read: ${secret} is outside the project`,
    ]);
  });

  it("reads imports anywhere in the repository, above the workspace too", async () => {
    const f = await fixture();
    await f.write("home/repo/docs/style.md", "STYLE");
    await f.write("home/repo/pkg/CLAUDE.md", "@../docs/style.md");
    const loaded = await f.load();
    expect(loaded.files.map((file) => file.label)).toEqual(["CLAUDE.md", "../docs/style.md"]);
  });

  it("cuts a cycle: each file once, no diagnostic", async () => {
    const f = await fixture();
    await f.write("home/repo/pkg/CLAUDE.md", "TOP @a.md");
    await f.write("home/repo/pkg/a.md", "A @b.md");
    await f.write("home/repo/pkg/b.md", "B @a.md @CLAUDE.md");
    const loaded = await f.load();
    expect(loaded.files.map((file) => file.label)).toEqual(["CLAUDE.md", "a.md", "b.md"]);
    expect(loaded.diagnostics).toEqual([]);
  });

  it("passes over @words that name no file (@alice, @types/node)", async () => {
    const f = await fixture();
    await f.write("home/repo/pkg/CLAUDE.md", "ask @alice about @types/node");
    const loaded = await f.load();
    expect(loaded.files.map((file) => file.label)).toEqual(["CLAUDE.md"]);
    expect(loaded.diagnostics).toEqual([]);
  });

  it("does not read imports in AGENTS.md (Codex and OpenCode do not)", async () => {
    const f = await fixture();
    await f.write("home/repo/pkg/AGENTS.md", "@extra.md");
    await f.write("home/repo/pkg/extra.md", "EXTRA");
    expect((await f.load()).section).not.toContain("EXTRA");
  });

  it("lets a project's file import a Markdown file from the home folder only in a trusted folder", async () => {
    const f = await fixture();
    await f.write("home/notes/mine.md", "MY-NOTES");
    await f.write("home/.aws/credentials", "AWS-KEY");
    await f.write("home/repo/pkg/CLAUDE.md", "@~/notes/mine.md\n@~/.aws/credentials\n");

    const untrusted = await f.load({ trusted: false });
    expect(untrusted.section).not.toContain("MY-NOTES");
    expect(untrusted.diagnostics[0]).toContain("only in a folder you trust (agentry trust)");

    const trusted = await f.load({ trusted: true });
    expect(trusted.section).toContain("MY-NOTES");
    expect(trusted.section).not.toContain("AWS-KEY");
    expect(trusted.diagnostics).toEqual([
      `CLAUDE.md: import @~/.aws/credentials was not read: ${join(f.home, ".aws", "credentials")} is outside the project, in your home folder, where a project's files may read Markdown (.md) files only`,
    ]);
  });

  it("lets the user's own CLAUDE.md import from the home folder, but not from outside it", async () => {
    const f = await fixture();
    await f.write("home/notes/rules.txt", "USER-RULES");
    const elsewhere = await f.write("outside/x.md", "ELSEWHERE");
    await f.write("home/.claude/CLAUDE.md", `@~/notes/rules.txt\n@${elsewhere}\n`);
    const loaded = await f.load();
    expect(loaded.files.map((file) => file.label)).toEqual(["~/.claude/CLAUDE.md", "~/notes/rules.txt"]);
    expect(loaded.diagnostics).toEqual([
      `~/.claude/CLAUDE.md: import @${elsewhere} was not read: ${elsewhere} is outside your home folder and the project`,
    ]);
  });
});
