import { describe, expect, it } from "vitest";
import { loadAgentFile } from "../../../src/agents/loaders/load-agent-file.ts";

// TOML has no positions: the Codex loader finds the line of each key and table itself. A diagnostic
// that points at the wrong line sends the user to the wrong place in the file.

const PATH = "/p/.codex/agents/reviewer.toml";

/** A role file: three lines of name, description and prompt, then `rest` from line 4. */
function roleFile(rest: string): string {
  return `name = "reviewer"\ndescription = "Reviews diffs."\ndeveloper_instructions = "Review the diff."\n${rest}`;
}

/** The line of the one diagnostic about `key` (whose message starts with `key:`). */
function lineOf(text: string, key: string): number | undefined {
  const { diagnostics } = loadAgentFile(text, PATH, { format: "codex" });
  const about = diagnostics.filter((d) => d.message.startsWith(`${key}:`));
  expect(about).toHaveLength(1);
  return about[0]?.line;
}

describe("the line a Codex role's diagnostic points at", () => {
  it.each([
    ["a table's header", "[tools]\nweb_search = true\n", "tools", 4],
    ["an indented header with spaces in its brackets", "\n  [ tools ]\n  web_search = true\n", "tools", 5],
    [
      "the first header of an array of tables",
      '[[skills.config]]\npath = "a/SKILL.md"\n\n[[skills.config]]\npath = "b/SKILL.md"\n',
      "skills",
      4,
    ],
    [
      "a table's own header, not an earlier header whose comment names it",
      '["notes"] # not the [tools] table\ntext = "x"\n[tools]\nweb_search = true\n',
      "tools",
      6,
    ],
    ["a key written without spaces", 'nickname_candidates=["Atlas"]\n', "nickname_candidates", 4],
    ["a key written with spaces before its =", 'web_search   = "live"\n', "web_search", 4],
    [
      "a key, not the commented-out line above it",
      '# nickname_candidates = ["Old"]\nnickname_candidates = ["Atlas"]\n',
      "nickname_candidates",
      5,
    ],
    [
      "a top-level key, not the same key in a later table",
      'approval_policy = "on-request"\n\n[profiles.careful]\napproval_policy = "untrusted"\n',
      "approval_policy",
      4,
    ],
    ["a key named like a method every object has", 'toString = "a"\n', "toString", 4],
    ["a key named undefined, not a line that names nothing", "\nundefined = 1\n", "undefined", 5],
  ])("is %s", (_, rest, key, line) => {
    expect(lineOf(roleFile(rest), key)).toBe(line);
  });
});

describe("a prompt that quotes TOML", () => {
  /** A role file whose developer_instructions, from line 3, is `prompt`, and whose lines after it are `rest`. */
  function promptFirst(prompt: string, rest: string): string {
    return `name = "reviewer"\ndescription = "Reviews diffs."\ndeveloper_instructions = ${prompt}\n${rest}`;
  }

  const NICKNAMES = 'nickname_candidates = ["Atlas"]\n';

  it.each([
    [
      "a key, not its line quoted in a multi-line prompt",
      ['"""', "To set nicknames, write", 'nickname_candidates = ["A"]', '"""'],
      NICKNAMES,
      "nickname_candidates",
      7,
    ],
    [
      "a table, not its header quoted in a multi-line prompt",
      ['"""', "Leave the", "[tools]", "table alone.", '"""'],
      "[tools]\nweb_search = true\n",
      "tools",
      8,
    ],
    [
      "a key, not its line quoted in a multi-line literal prompt",
      ["'''", "nickname_candidates = ['A']", "'''"],
      NICKNAMES,
      "nickname_candidates",
      6,
    ],
    [
      'a key, not its line quoted after an escaped \\""" that does not end the prompt',
      ['"""', 'Write \\""" around long text, as in', 'nickname_candidates = ["A"]', '"""'],
      NICKNAMES,
      "nickname_candidates",
      7,
    ],
    [
      "a key after a prompt that ends in an escaped backslash",
      ['"""', 'Paths end in \\\\"""'],
      NICKNAMES,
      "nickname_candidates",
      5,
    ],
    [
      "a key after a literal prompt, where a backslash escapes nothing",
      ["'''", "Paths end in \\'''"],
      NICKNAMES,
      "nickname_candidates",
      5,
    ],
    [
      "a key after a prompt that ends in a quote",
      ['"""', 'Say "done""""'],
      NICKNAMES,
      "nickname_candidates",
      5,
    ],
    [
      "a key after a multi-line string written on one line",
      ['"""Review the diff."""'],
      NICKNAMES,
      "nickname_candidates",
      4,
    ],
    [
      'a key after a one-line literal string that holds """',
      ['\'Quote long text with """.\''],
      NICKNAMES,
      "nickname_candidates",
      4,
    ],
    [
      'a key after a one-line string with escaped quotes, a # and """',
      ['"Say \\"hi\\" # then \\"\\"\\"."'],
      NICKNAMES,
      "nickname_candidates",
      4,
    ],
    [
      'a key after a comment that holds """',
      ['"Review the diff." # long prompts go in """ blocks'],
      NICKNAMES,
      "nickname_candidates",
      4,
    ],
  ])("points at %s", (_, prompt, rest, key, line) => {
    expect(lineOf(promptFirst(prompt.join("\n"), rest), key)).toBe(line);
  });

  it("points at a dotted key's first name", () => {
    const text = promptFirst('"p"', "sandbox_workspace_write.network_access = true\n");
    expect(lineOf(text, "sandbox_workspace_write")).toBe(4);
  });
});
