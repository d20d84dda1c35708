import { describe, expect, it } from "vitest";
import { effectiveAccess } from "../../../src/agents/effective-access.ts";
import { loadAgentFile } from "../../../src/agents/loaders/load-agent-file.ts";
import { bashPermissionPatterns } from "../../../src/permissions/bash-command.ts";
import { evaluate, evaluateRequest } from "../../../src/permissions/evaluate.ts";
import { summarize } from "../fixtures.ts";

/**
 * `tools` and `disallowedTools` lists as agent files write them (src/agents/loaders/tool-list.ts and
 * tool-name-list.ts): a comma string, a YAML list, a list inside a string, damaged lists, and Claude's
 * argument forms. What the agent may then use is checked exactly, with every diagnostic, so a name let
 * through or a denial dropped shows as a difference.
 */

/** Loads a Claude Code agent file whose front matter holds `lines`. */
function load(...lines: string[]) {
  const text = ["---", "name: a", "description: d", ...lines, "---", "Prompt."].join("\n");
  const result = loadAgentFile(text, "/p/.claude/agents/a.md", { format: "claude" });
  return { ...result, summary: summarize(result.diagnostics) };
}

function loaded(...lines: string[]) {
  const result = load(...lines);
  if (result.definition === undefined) throw new Error(`not loaded:\n${result.summary.join("\n")}`);
  return { ...result, definition: result.definition };
}

function errors(...lines: string[]): string[] {
  const { definition, diagnostics } = load(...lines);
  expect(definition).toBeUndefined();
  return diagnostics.filter((d) => d.severity === "error").map((d) => d.message);
}

const EMPTY = "warning: tools is empty → gave the agent no tools (remove the key to inherit)";

describe("tools", () => {
  it.each([
    ["a comma string", ["tools: Read, Grep"], ["read", "grep"], []],
    ["a trailing comma", ["tools: Read, Grep,"], ["read", "grep"], []],
    ["words separated by spaces", ["tools: Read Grep"], ["read", "grep"], []],
    ["a list in a quoted string, spaces around", [`tools: " [ 'Read', 'Grep' ] "`], ["read", "grep"], []],
    ["a damaged list in a string, missing its `]`", ["tools: '[Read, Grep'"], ["read", "grep"], []],
    ["a damaged list in a string, missing its `[`", ["tools: 'Read, Grep]'"], ["read", "grep"], []],
    ["a damaged list of quoted names, missing its `]`", [`tools: '["Read", "Grep"'`], ["read", "grep"], []],
    ["a damaged list of quoted names, missing its `[`", [`tools: '"Read", "Grep"]'`], ["read", "grep"], []],
    ["`[]`: no tools, as written", ["tools: []"], [], []],
    ["`[]` in a string: no tools, as written", ['tools: "[]"'], [], []],
    ["no value: no tools, with a warning", ["tools:"], [], [EMPTY]],
    ['`""`: no tools, with a warning', ['tools: ""'], [], [EMPTY]],
    ["a blank string: no tools, with a warning", ['tools: "  "'], [], [EMPTY]],
  ])("reads %s", (_, lines, tools, summary) => {
    const result = loaded(...lines);
    expect(result.definition.tools).toEqual(tools);
    expect(result.summary).toEqual(summary);
  });

  it.each([['"*"'], ['["*"]']])(
    "reads `tools: %s` as the parent's tools, as if the key were left out",
    (value) => {
      const { definition, summary } = loaded(`tools: ${value}`);
      expect(definition).not.toHaveProperty("tools");
      expect(summary).toEqual([]);
    },
  );

  it("drops an entry of a list that is not a name, saying so, and keeps the rest", () => {
    const { definition, summary } = loaded("tools: [Read, 42]");
    expect(definition.tools).toEqual(["read"]);
    expect(summary).toEqual(["warning: tools holds a non-name (42) → ignored that entry"]);
  });

  it.each([
    ["a 40-character entry whole", "x".repeat(32), `{"k":"${"x".repeat(32)}"}`],
    ["a 41-character entry cut to 37 and an ellipsis", "x".repeat(33), `{"k":"${"x".repeat(31)}...`],
  ])("shows %s", (_, value, shown) => {
    const { summary } = loaded("tools:", "  - Read", `  - { k: ${value} }`);
    expect(summary).toEqual([`warning: tools holds a non-name (${shown}) → ignored that entry`]);
  });

  it("drops an argument on a tool it cannot be restricted by, and gives the tool no more than the rest", () => {
    const { definition, summary } = loaded("tools: Read, Grep(TODO)");
    expect(definition.tools).toEqual(["read"]);
    expect(summary).toEqual([
      'warning: cannot restrict Grep by argument ("Grep(TODO)") → dropped tool Grep(TODO)',
    ]);
  });

  it.each([
    ["after a tool", "tools: [Read, Task(explore, plan, review)]", ["read", "task"]],
    ["first", "tools: [Task(explore, plan, review), Read]", ["task", "read"]],
  ])("keeps three agents of Task(…) together in a YAML flow list, %s", (_, line, tools) => {
    const { definition, summary } = loaded(line);
    expect(definition.tools).toEqual(tools);
    expect(definition.permission).toEqual({
      task: { "*": "deny", explore: "allow", plan: "allow", review: "allow" },
    });
    expect(summary).toEqual([]);
  });

  it.each([
    [
      "before a non-name",
      "tools: [Read, Bash(git log, 7]",
      [
        "warning: tools holds a non-name (7) → ignored that entry",
        "warning: unknown tool Bash(git log → dropped unknown tool Bash(git log",
      ],
    ],
    [
      "at the end",
      "tools: [Read, Bash(git log, Grep]",
      ["warning: unknown tool Bash(git log, Grep → dropped unknown tool Bash(git log, Grep"],
    ],
  ])("drops an argument list left open %s, saying so, instead of granting its tool", (_, line, summary) => {
    const result = loaded(line);
    expect(result.definition.tools).toEqual(["read"]);
    expect(result.definition).not.toHaveProperty("permission");
    expect(result.summary).toEqual(summary);
  });
});

describe("disallowedTools", () => {
  it.each([
    [
      "tools in any harness's spelling and MCP tools",
      "Write, MultiEdit, mcp__github__delete_repository",
      ["write", "edit", "mcp__github__delete_repository"],
    ],
    ["`*`", '"*"', ["*"]],
    ["an OpenCode glob of one server's tools", "github_*", ["github_*"]],
    ["a glob of one tool on every server", '"*_delete_repository"', ["*_delete_repository"]],
  ])("denies %s silently", (_, value, denied) => {
    const { definition, summary } = loaded(`disallowedTools: ${value}`);
    expect(definition.disallowedTools).toEqual(denied);
    expect(summary).toEqual([]);
  });

  it.each([
    ["mcp__github", "as Claude Code reads a server's name in its rules"],
    ["mcp__github__", "written with a trailing separator"],
  ])("denies every tool of an MCP server named alone, %s", (entry) => {
    const { definition, summary } = loaded(`disallowedTools: Write, ${entry}`);
    expect(definition.disallowedTools).toEqual(["write", "mcp__github__*"]);
    expect(summary).toEqual([]);
  });

  it.each([
    ["Bash(rm:*)", "Bash"],
    ["Bash (rm:*)", "Bash"],
  ])("denies all of a tool when %s denies part of it, saying so", (entry, tool) => {
    const { definition, summary } = loaded(`disallowedTools: ${entry}, Write`);
    expect(definition.disallowedTools).toEqual(["bash", "write"]);
    expect(summary).toEqual([
      `info: disallowedTools cannot deny part of a tool ("${entry}") → denied all of ${tool}`,
    ]);
  });

  it.each([
    ["WebFetch", "a tool agentry does not have"],
    ["FancyTool", "a name nobody knows"],
    ["github/*", "a pattern no tool name matches"],
    ["*/github", "a pattern no tool name matches"],
    ["…", "a mark with no word in it"],
  ])("ignores %s (%s) with a note", (entry) => {
    const { definition, summary } = loaded(`disallowedTools: Write, ${entry}`);
    expect(definition.disallowedTools).toEqual(["write"]);
    expect(summary).toEqual([
      `info: disallowedTools names ${entry}, which agentry does not have → ignored ${entry}`,
    ]);
  });

  it.each([
    ["an argument list left open", "Bash(rm -rf, Write", ["bash", "write"]],
    [
      "an MCP tool inside one",
      "Write(x, mcp__github__delete_repository",
      ["write", "mcp__github__delete_repository"],
    ],
    ["a parenthesis before the tool", "(Write) Bash(rm -rf *)", ["write", "bash"]],
    [
      "an MCP tool whose arguments are left open",
      "mcp__github__delete_repository(x, Write",
      ["mcp__github__delete_repository", "write"],
    ],
    ["an MCP server", "Bash(x, mcp__github", ["bash", "mcp__github__*"]],
    [
      "an MCP tool with - and . in its name",
      "Read(mcp__my-server__drop.all",
      ["read", "mcp__my-server__drop.all"],
    ],
    [
      "an MCP tool ending a sentence",
      "Read(x. Then mcp__github__delete_repository.",
      ["read", "mcp__github__delete_repository"],
    ],
    ["a lone * at the end", "Bash(rm *", ["*"]],
    ["a lone * in the middle", "Bash(rm * -rf", ["*"]],
    ["a lone * at the start", "* Bash(rm", ["*"]],
  ])("still denies every tool that %s names", (_, entry, denied) => {
    const { definition, summary } = loaded("disallowedTools:", `  - "${entry}"`);
    expect(definition.disallowedTools).toEqual(denied);
    expect(summary).toEqual([
      `warning: disallowedTools entry "${entry}" is not one tool name → denied ${denied.join(", ")}`,
    ]);
  });

  it("still denies the tools of an argument list a YAML flow list leaves open at its end", () => {
    const { definition, summary } = loaded("disallowedTools: [Write, Bash(rm, Edit]");
    expect(definition.disallowedTools).toEqual(["write", "bash", "edit"]);
    expect(summary).toEqual([
      'warning: disallowedTools entry "Bash(rm, Edit" is not one tool name → denied bash, edit',
    ]);
  });

  it("fails the file for an entry that is not a name: dropping it would hand a tool back", () => {
    expect(errors("disallowedTools: [Write, 42]")).toEqual([
      "disallowedTools holds something that is not a tool name (42)",
    ]);
  });
});

describe("how many entries are read", () => {
  const names = (count: number) => Array.from({ length: count }, (_, i) => `mcp__s__t${i}`);

  it.each(["tools", "disallowedTools"] as const)("reads 256 %s entries and fails the file at 257", (key) => {
    expect(loaded(`${key}: ${names(256).join(", ")}`).definition[key]).toHaveLength(256);
    expect(errors(`${key}: ${names(257).join(", ")}`)).toEqual([
      `${key} lists more than 256 tools; agentry reads at most 256`,
    ]);
  });
});

describe("arguments of tools become rules", () => {
  it.each([
    [
      "Write(…) limits edit, the permission a write asks for",
      "Write(docs/**)",
      { edit: { "*": "deny", "docs/**": "allow" } },
    ],
    [
      "Edit(…) and Write(…) add up on edit",
      "Edit(src/**), Write(docs/**)",
      { edit: { "*": "deny", "src/**": "allow", "docs/**": "allow" } },
    ],
    [
      "Edit(*) allows every edit, whatever Write(…) adds",
      "Edit(*), Write(docs/**)",
      { edit: { "*": "allow", "docs/**": "allow" } },
    ],
    [
      "a comma inside a command stays in it",
      "Bash(cut -d, -f1:*)",
      { bash: { "*": "deny", "cut -d, -f1 *": "allow" } },
    ],
    [
      "only a trailing :* is the prefix form",
      "Bash(curl http://localhost:*/health)",
      { bash: { "*": "deny", "curl http://localhost:*/health": "allow" } },
    ],
    [
      "an empty agent name in Task(…) allows nothing",
      "Task(explore, plan,)",
      { task: { "*": "deny", explore: "allow", plan: "allow" } },
    ],
  ])("%s", (_, tools, permission) => {
    const { definition, summary } = loaded(`tools: ${tools}`);
    expect(definition.permission).toEqual(permission);
    expect(summary).toEqual([]);
  });

  it("keeps ./ in a command (another program is not allowed by it), and reads a path from ./ as the workspace's", () => {
    const { definition } = loaded("tools: Bash(./deploy.sh:*), Edit(./src/**)");
    expect(definition.permission).toMatchObject({ bash: { "*": "deny", "./deploy.sh *": "allow" } });
    const rules = effectiveAccess(definition).rules;
    const bash = (command: string) => evaluateRequest(rules, "bash", bashPermissionPatterns(command)).action;
    expect(bash("deploy.sh --prod")).toBe("deny");
    expect(evaluate(rules, "edit", "src/a.ts")).toBe("allow");
    expect(evaluate(rules, "edit", "docs/a.md")).toBe("deny");
  });
});
