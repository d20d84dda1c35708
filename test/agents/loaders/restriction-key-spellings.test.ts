import { describe, expect, it } from "vitest";
import { loadAgentFile } from "../../../src/agents/loaders/load-agent-file.ts";

/**
 * How a front matter key is placed: a spelling of a limit agentry reads, a key that only looks like one
 * (which fails the file: agentry cannot tell what it limits), or an unknown key (a warning). Agent files
 * come from cloned repositories, so a key made to look like a limit is a way to get more than the file
 * appears to allow.
 */

/** A Claude Code agent file named a with this front matter line on line 3. */
function load(line: string) {
  const text = `---\ndescription: Reviews code.\n${line}\nname: a\n---\nReview.\n`;
  const { definition, diagnostics } = loadAgentFile(text, "/p/.claude/agents/a.md", { format: "claude" });
  return {
    definition,
    said: diagnostics.map((d) => `${d.severity} (line ${d.line}): ${d.message} → ${d.action}`),
  };
}

const imitates = (key: string, reads: string): string =>
  `error (line 3): ${key} is written with letters outside ASCII and reads as "${reads}", a key that limits the agent; a harness that reads keys as written ignores it, so the agent would get more than the file appears to allow (write the key in plain ASCII) → skipped the file`;

const looksLikeALimit = (key: string): string =>
  `error (line 3): ${key} looks like it limits the agent, but agentry cannot read it; ignoring it could give the agent more than the file allows (remove or rename the key; see docs/agent-files.md) → skipped the file`;

describe("a restriction's key with characters outside ASCII", () => {
  it.each([
    ["a non-breaking hyphen", "allowed\u2011tools"],
    ["a combining accent", "to\u0301ols"],
  ])("is read as that restriction when its ASCII letters spell it, around %s", (_behaviour, key) => {
    expect(load(`${key}: Read`)).toMatchObject({
      definition: { tools: ["read"] },
      said: [`info (line 3): ${key} is read as tools → applied it as tools`],
    });
  });

  it.each([
    ["an accent", "t\u00f3ols: Read", "tools"],
    ["a Cyrillic е in a word that only looks like a limit", "d\u0435ny: [Bash]", "deny"],
  ])("fails the file when, read without %s, it is a limit", (_behaviour, line, reads) => {
    const key = line.slice(0, line.indexOf(":"));
    expect(load(line)).toEqual({ definition: undefined, said: [imitates(key, reads)] });
  });
});

describe("a tool name as a key", () => {
  it.each([
    ["an MCP tool", "mcp__github__create_issue: false", "mcp__github__create_issue"],
    ["a tool with a stray space in its quotes", '" Write ": false', " Write "],
  ])("fails the file for %s switched off", (_behaviour, line, key) => {
    expect(load(line)).toEqual({ definition: undefined, said: [looksLikeALimit(key)] });
  });
});
