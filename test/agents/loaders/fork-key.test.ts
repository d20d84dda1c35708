import { describe, expect, it } from "vitest";
import { loadAgentFile } from "../../../src/agents/loaders/load-agent-file.ts";

/**
 * `fork`: how much of the parent's conversation a child starts with. A value agentry cannot read is
 * ignored with a warning, and the child starts as if the key were absent.
 */

function load(line: string) {
  const text = `---\ndescription: Continues the work.\n${line}\n---\nGo on.\n`;
  const { definition, diagnostics } = loadAgentFile(text, "/p/.agentry/agents/fork.md", {
    format: "agentry",
  });
  return {
    definition,
    said: diagnostics.map((d) => `${d.severity} (line ${d.line}): ${d.message} → ${d.action}`),
  };
}

describe("fork", () => {
  it.each([
    ["none", "fork: none", "none"],
    ["all", "fork: all", "all"],
    ["a number of turns", "fork: 3", 3],
    ["false as none", "fork: false", "none"],
  ])("keeps %s", (_behaviour, line, fork) => {
    expect(load(line)).toMatchObject({ definition: { fork }, said: [] });
  });

  it.each([
    ["zero turns", "fork: 0"],
    ["a negative number", "fork: -2"],
    ["a fraction", "fork: 2.5"],
    ["a number written as a string", 'fork: "3"'],
    ["true", "fork: true"],
    ["another word", "fork: some"],
  ])("ignores %s with a warning", (_behaviour, line) => {
    const { definition, said } = load(line);
    expect(definition).toBeDefined();
    expect(definition).not.toHaveProperty("fork");
    expect(said).toEqual([
      'warning (line 3): fork: must be "none", "all" or a number of turns → ignored key fork',
    ]);
  });
});
