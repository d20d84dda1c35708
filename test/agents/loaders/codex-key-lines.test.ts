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
  ])("is %s", (_, rest, key, line) => {
    expect(lineOf(roleFile(rest), key)).toBe(line);
  });
});
