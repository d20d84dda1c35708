import { describe, expect, it } from "vitest";
import type { AgentFormat } from "../../../src/agents/definition.ts";
import { loadAgentFile } from "../../../src/agents/loaders/load-agent-file.ts";
import { wildcardMatch } from "../../../src/permissions/wildcard.ts";
import { summarize } from "../fixtures.ts";

/**
 * `tools` written as a map of booleans (OpenCode's form, which Claude and agentry files borrow): read
 * so that it never gives more than it names. Each case checks the tools the agent gets, the tools it
 * loses, and every diagnostic.
 */

type Format = Extract<AgentFormat, "claude" | "opencode">;

const PATHS: Record<Format, string> = {
  claude: "/p/.claude/agents/a.md",
  opencode: "/p/.opencode/agents/a.md",
};

function load(format: Format, map: Record<string, unknown>) {
  const name = format === "opencode" ? [] : ["name: a"];
  const entries = Object.entries(map).map(([key, value]) => `  ${JSON.stringify(key)}: ${String(value)}`);
  const text = ["---", "description: d", ...name, "tools:", ...entries, "---", "Prompt."].join("\n");
  const result = loadAgentFile(text, PATHS[format], { format });
  return { ...result, summary: summarize(result.diagnostics) };
}

function loaded(format: Format, map: Record<string, unknown>) {
  const result = load(format, map);
  if (result.definition === undefined) throw new Error(`not loaded:\n${result.summary.join("\n")}`);
  return { ...result, definition: result.definition };
}

function errors(format: Format, map: Record<string, unknown>): string[] {
  const { definition, diagnostics } = load(format, map);
  expect(definition).toBeUndefined();
  return diagnostics.filter((d) => d.severity === "error").map((d) => d.message);
}

/** What the agent gets: `inherited` for its parent's tools, then what it loses. */
function reading(format: Format, map: Record<string, unknown>) {
  const { definition, summary } = loaded(format, map);
  return {
    tools: definition.tools ?? "inherited",
    denied: definition.disallowedTools ?? "none",
    summary,
  };
}

describe("a tools map", () => {
  it.each(["claude", "opencode"] as const)('in a %s file, "*": false gives only the trues', (format) => {
    expect(reading(format, { "*": false, Read: true, Write: false })).toEqual({
      tools: ["read"],
      denied: ["write"],
      summary: [],
    });
    expect(reading(format, { "*": false, Read: true })).toEqual({
      tools: ["read"],
      denied: "none",
      summary: [],
    });
  });

  it.each([
    ["claude", { "*": true, write: false }],
    ["claude", { "*": true, read: true, write: false }],
    ["opencode", { "*": true, read: true, write: false }],
  ] as const)('in a %s file, "*": true keeps the others but the falses (%o)', (format, map) => {
    expect(reading(format, map)).toEqual({ tools: "inherited", denied: ["write"], summary: [] });
  });

  it("turns off MCP tools by name, and what agentry does not have with a note", () => {
    const map = {
      write: false,
      mcp__github__delete_repository: false,
      webfetch: false,
      update_plan: false,
      context7: false,
    };
    expect(reading("opencode", map)).toEqual({
      tools: "inherited",
      denied: ["write", "mcp__github__delete_repository"],
      summary: ["webfetch", "update_plan", "context7"].map(
        (name) => `info: tools turns off ${name}, which agentry does not have → ignored ${name}`,
      ),
    });
  });

  it("turns off every tool of an MCP server named alone", () => {
    expect(reading("opencode", { mcp__github: false })).toEqual({
      tools: "inherited",
      denied: ["mcp__github__*"],
      summary: [],
    });
  });

  // OpenCode names an MCP server's tools `<server>_<tool>` (`github_delete_repository`); agentry names
  // them `mcp__github__delete_repository`, which such a name or glob written as it is never matches.
  it.each([
    ["every tool of a server", "github_*", ["github_*", "mcp__github_*"]],
    ["one tool of a server", "github_delete_repository", ["mcp__github_*delete_*repository"]],
  ])("turns off %s named the OpenCode way, under agentry's name for it", (_, name, denied) => {
    const result = reading("opencode", { [name]: false });
    expect(result).toEqual({
      tools: "inherited",
      denied,
      summary: [
        `info: tools turns off ${name}, OpenCode's name for MCP tools → denied ${denied.at(-1)} (agentry's name for them)`,
      ],
    });
    const deniedTool = (tool: string) => denied.some((pattern) => wildcardMatch(pattern, tool));
    expect(deniedTool("mcp__github__delete_repository")).toBe(true);
    expect(deniedTool("mcp__gitlab__delete_repository")).toBe(false);
  });

  it("turns off a server named by a glob without an underscore (`my-mcp*`) under agentry's name too", () => {
    const { denied } = reading("opencode", { "my-mcp*": false });
    expect(denied).toEqual(["my-mcp*", "mcp__my-mcp*"]);
  });

  it("never grants a pattern of tools, even an MCP one", () => {
    expect(reading("opencode", { "*": false, read: true, "mcp__github__*": true })).toEqual({
      tools: ["read"],
      denied: "none",
      summary: ['warning: tool patterns cannot be granted ("mcp__github__*") → dropped tool mcp__github__*'],
    });
  });

  it("gives no tools, saying so, when it enables none that agentry has", () => {
    expect(reading("opencode", { "*": false, webfetch: true })).toEqual({
      tools: [],
      denied: "none",
      summary: [
        "info: agentry has no webfetch tool → dropped tool webfetch",
        "warning: the tools map enables no tool agentry has → gave the agent no tools",
      ],
    });
  });

  it("fails the file for values that are not booleans, naming up to five of them", () => {
    expect(errors("opencode", { bash: "maybe", edit: "sometimes" })).toEqual([
      "tools map values must be true or false (bash, edit is not)",
    ]);
    const six = Object.fromEntries(["a", "b", "c", "d", "e", "f"].map((key) => [key, 1]));
    expect(errors("opencode", six)).toEqual([
      "tools map values must be true or false (a, b, c, d, e is not)",
    ]);
  });

  it("reads 256 entries and fails the file at 257", () => {
    const map = (count: number) =>
      Object.fromEntries(Array.from({ length: count }, (_, i) => [`mcp__s__t${i}`, false]));
    expect(loaded("opencode", map(256)).definition.disallowedTools).toHaveLength(256);
    expect(errors("opencode", map(257))).toEqual(["tools has 257 entries; at most 256 are read"]);
  });
});
