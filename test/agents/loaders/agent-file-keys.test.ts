import { describe, expect, it } from "vitest";
import { loadAgentFile } from "../../../src/agents/loaders/load-agent-file.ts";
import { summarize } from "../fixtures.ts";

/**
 * How the keys of an agent file (a repository's, so untrusted) are read as a whole: how many there may
 * be, what a restriction spelled another harness's way is told, where each diagnostic points, and what
 * happens to a definition that gets past every key but not the definition's schema.
 */

const PATH = "/p/.claude/agents/reviewer.md";

/** A Claude Code agent file named `reviewer` whose front matter is `lines`. */
function load(...lines: string[]) {
  const text = ["---", "name: reviewer", ...lines, "---", "Prompt."].join("\n");
  const result = loadAgentFile(text, PATH, { format: "claude" });
  return { ...result, summary: summarize(result.diagnostics) };
}

/** The lines that make, with `name`, a front matter of `count` keys: a description, then notes (unknown keys). */
function keys(count: number): string[] {
  const notes = Array.from({ length: count - 2 }, (_, i) => `note${i}: x`);
  return ["description: d", ...notes];
}

describe("the number of keys", () => {
  it("reads a file of 200 keys, the most agentry reads", () => {
    const { definition, diagnostics } = load(...keys(200));
    expect(definition?.name).toBe("reviewer");
    expect(diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  });

  it("refuses a file of 201 keys without reading them", () => {
    const { definition, summary } = load(...keys(201));
    expect(definition).toBeUndefined();
    expect(summary).toEqual([
      "error: the file has 201 keys; agentry reads agent files of up to 200 → skipped the file",
    ]);
  });
});

describe("where each diagnostic points", () => {
  it("notes a restriction spelled another harness's way at its line, and applies it", () => {
    const { definition, diagnostics } = load("description: d", "allowed-tools: Read, Grep");
    expect(definition?.tools).toEqual(["read", "grep"]);
    expect(diagnostics).toEqual([
      {
        severity: "info",
        file: PATH,
        line: 4,
        message: "allowed-tools is read as tools",
        action: "applied it as tools",
      },
    ]);
  });

  it("fails an empty description at its line", () => {
    const { definition, diagnostics } = load('description: ""');
    expect(definition).toBeUndefined();
    expect(diagnostics).toEqual([
      {
        severity: "error",
        file: PATH,
        line: 3,
        message: "no description: the parent agent picks subagents by their description",
        action: "skipped the file",
      },
    ]);
  });

  it("gives a diagnostic about the whole file no line, even beside a key named `undefined`", () => {
    const text = ["---", "description: d", "undefined: x", "---", "Prompt."].join("\n");
    const { diagnostics } = loadAgentFile(text, PATH, { format: "claude" });
    expect(diagnostics.map((d) => [d.message, d.line])).toEqual([
      ["no name key", undefined],
      ["undefined: unknown key", 3],
    ]);
  });
});

describe("a definition its keys pass but the definition refuses", () => {
  it("fails the file, naming each field that is wrong", () => {
    const { definition, summary } = load(
      "description: d",
      "mcpServers:",
      '  - "": { command: a }',
      '  - "": { command: b }',
    );
    expect(definition).toBeUndefined();
    expect(summary).toEqual([
      "error: invalid definition (mcpServers.0.name: Too small: expected string to have >=1 characters; " +
        "mcpServers.1.name: Too small: expected string to have >=1 characters) → skipped the file",
    ]);
  });
});
