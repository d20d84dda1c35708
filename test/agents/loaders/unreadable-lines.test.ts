import { describe, expect, it } from "vitest";
import { loadAgentFile } from "../../../src/agents/loaders/load-agent-file.ts";

/**
 * Front matter that strict YAML rejects is read line by line; a line that reader cannot place is
 * dropped. When it may have held a limit — a list item naming a tool, orphaned from its `tools` list, or
 * a word that names a limit — dropping it could give the agent more than its author meant, so the file
 * fails; other lines are dropped with a warning.
 */

function load(frontMatter: string[]) {
  const text = ["---", ...frontMatter, "---", "Review."].join("\n");
  const { definition, diagnostics } = loadAgentFile(text, "/p/.agentry/agents/r.md", { format: "agentry" });
  return {
    loaded: definition !== undefined,
    said: diagnostics
      .filter((d) => d.message.startsWith("could not read"))
      .map((d) => `${d.severity} (line ${d.line}): ${d.message} → ${d.action}`),
  };
}

const mayHoldALimit = (line: string, at: number): string =>
  `error (line ${at}): could not read front matter line "${line}", and the line may hold a limit on what the agent may do → skipped the file`;

describe("a front matter line the lenient reader cannot place", () => {
  it.each([
    ["a list item naming a tool", "- Read"],
    ["a list item naming a tool without the space after its dash", "-Read"],
    ["a word naming a limit that no other key contains (network)", "network = none"],
    ["a word naming a limit that no other key contains (isolation)", "isolation = worktree"],
  ])("fails the file for %s", (_behaviour, line) => {
    expect(load(["description: Reviews code.", line])).toEqual({
      loaded: false,
      said: [mayHoldALimit(line, 3)],
    });
  });

  it("fails the file for an indented list item naming a tool", () => {
    expect(load(["  - Read", "description: Reviews code."])).toEqual({
      loaded: false,
      said: [mayHoldALimit("- Read", 2)],
    });
  });

  it.each([
    ["a tool's name in prose", "see - Read"],
    ["a list item that names no tool", "- reviews the change"],
  ])("drops %s with a warning and loads the agent", (_behaviour, line) => {
    expect(load(["description: Reviews code.", line])).toEqual({
      loaded: true,
      said: [`warning (line 3): could not read front matter line "${line}" → ignored the line`],
    });
  });
});
