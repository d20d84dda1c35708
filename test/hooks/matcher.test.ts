import { describe, expect, it } from "vitest";
import { compileMatcher } from "../../src/hooks/matcher.ts";

describe("a hook's matcher, as Claude Code reads it", () => {
  const matches = (matcher: string | undefined, value: string) => compileMatcher(matcher)?.(value);

  it("matches everything when absent, empty or *", () => {
    for (const matcher of [undefined, "", "*", "  "]) expect(matches(matcher, "Bash")).toBe(true);
  });

  it("takes names and |-lists as exact names, case-sensitive", () => {
    expect(matches("Bash", "Bash")).toBe(true);
    expect(matches("Bash", "BashOutput")).toBe(false);
    expect(matches("Bash", "bash")).toBe(false);
    expect(matches("Edit|Write", "Write")).toBe(true);
    expect(matches("Edit|Write", "WriteFile")).toBe(false);
  });

  it("takes anything else as a regular expression found anywhere in the name", () => {
    expect(matches("mcp__github__.*", "mcp__github__create_issue")).toBe(true);
    expect(matches("mcp__github__.*", "mcp__gitlab__create_issue")).toBe(false);
    expect(matches("^Notebook", "NotebookEdit")).toBe(true);
    expect(matches(".*write.*", "Write")).toBe(false);
  });

  it("gives nothing for a pattern that is not a regular expression", () => {
    expect(compileMatcher("Bash(")).toBeUndefined();
  });
});
