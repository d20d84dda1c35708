import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadAgentDefinitions } from "../../../src/agents/discover.ts";
import { loadAgentFile } from "../../../src/agents/loaders/load-agent-file.ts";
import { summarize } from "../fixtures.ts";

/**
 * An agent's name becomes a path segment (`.agentry/agents/<name>/`) and what `task` is called with, and
 * it comes from a repository's file: a name that is not filename-safe is made into one with a warning,
 * or the file fails; each diagnostic points at the `name` line.
 */

/** A Claude Code agent file `<stem>.md` whose front matter is `description: d` and then `lines`. */
function load(stem: string, ...lines: string[]) {
  const text = ["---", "description: d", ...lines, "---", "Prompt."].join("\n");
  const result = loadAgentFile(text, `/p/.claude/agents/${stem}.md`, { format: "claude" });
  return { ...result, name: result.definition?.name, summary: summarize(result.diagnostics) };
}

describe("a name that is not filename-safe", () => {
  it.each([
    ["leading symbols are dropped", "__Reviewer", "reviewer"],
    ["trailing symbols are dropped", "Reviewer !!-", "reviewer"],
    [
      "a long name is cut to 64 characters",
      `${"a".repeat(40)} ${"b".repeat(40)}`,
      `${"a".repeat(40)}-${"b".repeat(23)}`,
    ],
  ])("becomes a slug: %s", (_, written, slug) => {
    const { name, diagnostics } = load("agent", `name: "${written}"`);
    expect(name).toBe(slug);
    expect(diagnostics).toContainEqual(
      expect.objectContaining({
        severity: "warning",
        line: 3,
        message: `"${written}" is not a valid agent name`,
        action: `used "${slug}" as name`,
      }),
    );
  });

  it("falls back to the file name when the name has nothing to make a slug of", () => {
    const { name, diagnostics } = load("reviewer", "name: 日本語");
    expect(name).toBe("reviewer");
    expect(diagnostics).toEqual([
      expect.objectContaining({
        severity: "warning",
        line: 3,
        message: '"日本語" is not a valid agent name',
        action: 'used "reviewer" as name',
      }),
    ]);
  });

  it("fails the file when neither the name nor the file name makes one", () => {
    const { definition, diagnostics } = load("日本語", 'name: "!!!"');
    expect(definition).toBeUndefined();
    expect(diagnostics).toEqual([
      expect.objectContaining({
        severity: "error",
        line: 3,
        message: 'cannot make an agent name out of "!!!"',
        action: "skipped the file",
      }),
    ]);
  });

  it("fails the file when it has no name and its file name makes none", () => {
    const { definition, summary } = load("日本語");
    expect(definition).toBeUndefined();
    expect(summary).toEqual(['error: cannot make an agent name out of "日本語" → skipped the file']);
  });
});

describe("a name key that is not a name", () => {
  it.each([
    ["a number", "name: 42"],
    ["blank", 'name: "   "'],
    ["a list", "name: [reviewer]"],
  ])("is ignored when it is %s, and the file name is used", (_, line) => {
    const { name, diagnostics } = load("reviewer", line);
    expect(name).toBe("reviewer");
    expect(diagnostics).toEqual([
      expect.objectContaining({
        severity: "warning",
        line: 3,
        message: "name: not a non-empty string",
        action: "ignored key name",
      }),
    ]);
  });

  it("reads an empty `name:` as no name, without a warning", () => {
    const { name, diagnostics } = load("reviewer", "name:");
    expect(name).toBe("reviewer");
    expect(diagnostics).toEqual([]);
  });

  it("trims a quoted name without calling it invalid", () => {
    const { name, diagnostics } = load("reviewer", 'name: "  reviewer  "');
    expect(name).toBe("reviewer");
    expect(diagnostics).toEqual([]);
  });

  it("notes a name that differs from the file name at the name line", () => {
    const { name, diagnostics } = load("auditor", "model: sonnet", "name: security-auditor");
    expect(name).toBe("security-auditor");
    expect(diagnostics).toEqual([
      expect.objectContaining({
        severity: "info",
        line: 4,
        message: 'name "security-auditor" differs from the file name "auditor"',
      }),
    ]);
  });
});

describe("a name given by the file's structure (an opencode.json agent key)", () => {
  let root: string;

  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), "agentry-agent-names-"));
    await mkdir(join(root, "project"));
    await mkdir(join(root, "home"));
  });

  afterEach(async () => {
    await rm(root, { recursive: true, force: true, maxRetries: 3 });
  });

  it("fails the agent rather than naming it after the config file", async () => {
    const config = join(root, "project/opencode.json");
    await writeFile(config, JSON.stringify({ agent: { 日本語: { description: "d", prompt: "p" } } }));
    const { definitions, diagnostics } = await loadAgentDefinitions({
      projectDir: join(root, "project"),
      homeDir: join(root, "home"),
      includeBuiltins: false,
    });
    expect(definitions).toEqual([]);
    expect(diagnostics).toEqual([
      expect.objectContaining({
        severity: "error",
        file: config,
        message: 'agent "日本語": cannot make an agent name out of "日本語"',
      }),
    ]);
  });
});
