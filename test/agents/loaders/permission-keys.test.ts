import { describe, expect, it } from "vitest";
import { loadAgentFile } from "../../../src/agents/loaders/load-agent-file.ts";

/**
 * `permission` and `permissionMode` in an agent file: what agentry keeps, the notes it adds where a
 * peer's value has no exact match here, and the errors (words and line) for a value it cannot read.
 */

/** A Claude Code agent file named r with these front matter lines; the first of them is on line 3. */
function load(lines: string) {
  const text = `---\ndescription: Reviews code.\n${lines}\nname: r\n---\nReview.\n`;
  const { definition, diagnostics } = loadAgentFile(text, "/p/.claude/agents/r.md", { format: "claude" });
  return {
    definition,
    said: diagnostics.map((d) => `${d.severity} (line ${d.line}): ${d.message} → ${d.action}`),
  };
}

describe("permission", () => {
  it("names every rule it cannot read in one error", () => {
    expect(load("permission:\n  bash: maybe\n  edit: never")).toEqual({
      definition: undefined,
      said: [
        'error (line 3): permission.bash: must be "allow", "ask" or "deny" or a map of pattern to action (got "maybe"); permission.edit: must be "allow", "ask" or "deny" or a map of pattern to action (got "never") → skipped the file',
      ],
    });
  });

  it("fails the file for a pattern map with an empty pattern", () => {
    expect(load('permission:\n  bash:\n    "": allow')).toEqual({
      definition: undefined,
      said: [
        "error (line 3): permission is not a rule list, an action or a permission map → skipped the file",
      ],
    });
  });

  it("removes a tool its rules deny everywhere, and only that tool", () => {
    expect(load("permission:\n  grep: deny")).toEqual({
      definition: expect.objectContaining({ disallowedTools: ["grep"], permission: { grep: "deny" } }),
      said: [
        "info (line 3): permission: grep is denied everywhere → removed the grep tool (it asks read for each path it searches)",
      ],
    });
  });
});

describe("permissionMode", () => {
  it.each([
    ["default", "default"],
    ["acceptEdits", "accept-edits"],
    ["accept-edits", "accept-edits"],
    [" AcceptEdits ", "accept-edits"],
  ])("keeps %j as %s without a note", (value, mode) => {
    expect(load(`permissionMode: "${value}"`)).toMatchObject({
      definition: { permissionMode: mode },
      said: [],
    });
  });

  it.each(["dontAsk", " DontAsk "])("reads %j as default and says so", (value) => {
    expect(load(`permissionMode: "${value}"`)).toMatchObject({
      definition: { permissionMode: "default" },
      said: [
        "info (line 3): permissionMode dontAsk has no equivalent in agentry → used default (asks go to the root)",
      ],
    });
  });

  it("keeps bypassPermissions and says a child never gets more than its parent", () => {
    expect(load("permissionMode: bypassPermissions")).toMatchObject({
      definition: { permissionMode: "bypass" },
      said: [
        "info (line 3): permissionMode bypassPermissions asks to skip permission checks → kept it; a child never gets more than its parent",
      ],
    });
  });

  it("makes plan mode a read-only limit rather than a mode", () => {
    const { definition, said } = load("permissionMode: plan");
    expect(said).toEqual([]);
    expect(definition).not.toHaveProperty("permissionMode");
    expect(definition?.disallowedTools).toEqual(["write", "edit"]);
  });

  it.each([
    ["a number", "permissionMode: 3"],
    ["a mode of no harness", "permissionMode: auto"],
  ])("fails the file for %s", (_behaviour, line) => {
    expect(load(line)).toEqual({
      definition: undefined,
      said: [
        "error (line 3): permissionMode must be one of default, acceptEdits, dontAsk, bypassPermissions, plan → skipped the file",
      ],
    });
  });
});
