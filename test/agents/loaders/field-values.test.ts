import { describe, expect, it } from "vitest";
import type { Diagnostic } from "../../../src/agents/diagnostics.ts";
import { loadAgentFile } from "../../../src/agents/loaders/load-agent-file.ts";

/**
 * The values agentry keeps and refuses for the keys every format shares (fields.ts): a value it
 * cannot use is ignored with a warning naming the key and its line, and the rest of the file loads.
 */

const path = "/p/.agentry/agents/reviewer.md";

/** An agentry agent file with these front matter lines; the first of them is on line 3. */
function load(lines: string, { description = "Reviews code." }: { description?: string } = {}) {
  const text = `---\ndescription: ${description}\n${lines}\n---\nReview the change.\n`;
  const { definition, diagnostics } = loadAgentFile(text, path, { format: "agentry" });
  return { definition, said: asLines(diagnostics) };
}

function asLines(diagnostics: readonly Diagnostic[]): string[] {
  return diagnostics.map((d) => `${d.severity} (line ${d.line}): ${d.message} → ${d.action}`);
}

describe("description", () => {
  it("says a description that is not a string is ignored, then skips the file for having none", () => {
    expect(load("", { description: "42" })).toEqual({
      definition: undefined,
      said: [
        "warning (line 2): description: not a string → ignored key description",
        "error (line 2): no description: the parent agent picks subagents by their description → skipped the file",
      ],
    });
  });

  it("says only that an empty description is missing", () => {
    expect(load("", { description: "" }).said).toEqual([
      "error (line 2): no description: the parent agent picks subagents by their description → skipped the file",
    ]);
  });
});

describe("color", () => {
  it("keeps a color name without the spaces around it", () => {
    expect(load('color: "  cyan  "')).toMatchObject({ definition: { color: "cyan" }, said: [] });
  });

  it.each([
    ["a blank color", 'color: "  "'],
    ["a number", "color: 5"],
  ])("ignores %s with a note", (_behaviour, line) => {
    const { definition, said } = load(line);
    expect(definition).toBeDefined();
    expect(definition).not.toHaveProperty("color");
    expect(said).toEqual(["info (line 3): color: not a color name → ignored key color"]);
  });
});

describe("temperature", () => {
  it.each([0, 0.7, 2])("keeps %s", (value) => {
    expect(load(`temperature: ${value}`)).toMatchObject({ definition: { temperature: value }, said: [] });
  });

  it.each([
    ["below 0", "-0.5"],
    ["above 2", "2.5"],
    ["not a number", "hot"],
    ["written as a string", '"1"'],
  ])("ignores a temperature %s", (_behaviour, value) => {
    const { definition, said } = load(`temperature: ${value}`);
    expect(definition).toBeDefined();
    expect(definition).not.toHaveProperty("temperature");
    expect(said).toEqual([
      "warning (line 3): temperature: not a number between 0 and 2 → ignored key temperature",
    ]);
  });
});

describe.each(["hidden", "background"] as const)("%s", (key) => {
  it.each([true, false])("keeps %s", (value) => {
    expect(load(`${key}: ${value}`)).toMatchObject({ definition: { [key]: value }, said: [] });
  });

  it("ignores a yes that YAML reads as a word, not true", () => {
    const { definition, said } = load(`${key}: yes`);
    expect(definition).toBeDefined();
    expect(definition).not.toHaveProperty(key);
    expect(said).toEqual([`warning (line 3): ${key}: not true or false → ignored key ${key}`]);
  });
});

describe("maxTurns and its aliases", () => {
  it.each([
    ["a whole number", "12"],
    ["a whole number written as a string", '"12"'],
  ])("keeps %s", (_behaviour, value) => {
    expect(load(`maxTurns: ${value}`)).toMatchObject({ definition: { maxTurns: 12 }, said: [] });
  });

  it.each([
    ["zero", "0"],
    ["a negative number", "-3"],
    ["a fraction", "2.5"],
    ["a word", "many"],
    ["true, which is no number of turns", "true"],
    ["a hexadecimal string", '"0x10"'],
    ["an exponent in a string", '"1e2"'],
    ["an empty string", '""'],
  ])("ignores %s, naming the key as written", (_behaviour, value) => {
    const { definition, said } = load(`steps: ${value}`);
    expect(definition).toBeDefined();
    expect(definition).not.toHaveProperty("maxTurns");
    expect(said).toEqual(["warning (line 3): steps: not a positive whole number → ignored key steps"]);
  });

  it.each([
    ["the later is smaller", "maxTurns: 12\nsteps: 8", "steps conflicts with another turn limit (12)", 4],
    [
      "the earlier is smaller",
      "maxIters: 8\nmaxTurns: 12",
      "maxTurns conflicts with another turn limit (8)",
      4,
    ],
  ])("uses the smaller of two turn limits when %s, and warns", (_behaviour, lines, message, line) => {
    expect(load(lines)).toMatchObject({
      definition: { maxTurns: 8 },
      said: [`warning (line ${line}): ${message} → used the smaller`],
    });
  });

  it("says nothing when two turn limits agree", () => {
    expect(load("maxTurns: 8\nmaxSteps: 8")).toMatchObject({ definition: { maxTurns: 8 }, said: [] });
  });
});

describe("mode", () => {
  it("keeps one of agentry's modes", () => {
    expect(load("mode: primary")).toMatchObject({ definition: { mode: "primary" }, said: [] });
  });

  it("ignores another word and keeps the agent a subagent", () => {
    expect(load("mode: boss")).toMatchObject({
      definition: { mode: "subagent" },
      said: ["warning (line 3): mode: must be one of subagent, primary, all → ignored key mode"],
    });
  });
});

describe("mcpServers", () => {
  it("keeps server names without their spaces and inline servers with their configuration", () => {
    expect(load('mcpServers:\n  - "  github  "\n  - jira:\n      command: jira-mcp')).toMatchObject({
      definition: { mcpServers: [{ name: "github" }, { name: "jira", config: { command: "jira-mcp" } }] },
      said: [],
    });
  });

  it("ignores each entry it cannot use, says which, and keeps the rest", () => {
    const { definition, said } = load(
      'mcpServers:\n  - github\n  - "  "\n  - 42\n  - slack: true\n    docs:\n      url: https://docs.example/mcp',
    );
    expect(definition?.mcpServers).toEqual([
      { name: "github" },
      { name: "docs", config: { url: "https://docs.example/mcp" } },
    ]);
    expect(said).toEqual([
      'warning (line 3): mcpServers: not a server name or table ("  ") → ignored it',
      "warning (line 3): mcpServers: not a server name or table (42) → ignored it",
      "warning (line 3): mcpServers: server slack has no configuration table → ignored slack",
    ]);
  });

  it("adds no empty list when no entry can be used (agents show would print mcpServers: [])", () => {
    const { definition, said } = load("mcpServers: 42");
    expect(definition).toBeDefined();
    expect(definition).not.toHaveProperty("mcpServers");
    expect(said).toEqual(["warning (line 3): mcpServers: not a server name or table (42) → ignored it"]);
  });
});

describe("skills", () => {
  it("keeps each skill of a comma list once, without blanks", () => {
    expect(load("skills: pdf, , docx, pdf")).toMatchObject({
      definition: { skills: ["pdf", "docx"] },
      said: [],
    });
  });

  it("ignores a list with an entry that is not a name", () => {
    const { definition, said } = load("skills: [pdf, 3]");
    expect(definition).toBeDefined();
    expect(definition).not.toHaveProperty("skills");
    expect(said).toEqual(["warning (line 3): skills: not a list of skill names → ignored key skills"]);
  });

  it("adds no empty list for a blank one", () => {
    const { definition, said } = load('skills: " , "');
    expect(definition).toBeDefined();
    expect(definition).not.toHaveProperty("skills");
    expect(said).toEqual([]);
  });
});
