import { describe, expect, it } from "vitest";
import type { AgentFormat } from "../../../src/agents/definition.ts";
import { effectiveAccess } from "../../../src/agents/effective-access.ts";
import { loadAgentFile } from "../../../src/agents/loaders/load-agent-file.ts";
import { evaluate } from "../../../src/permissions/evaluate.ts";
import { summarize } from "../fixtures.ts";

/**
 * Issue 21, "Agent files that still widen": files found in public collections, and crafted ones, that
 * loaded with more than they asked for. Each must now be limited as written, or fail.
 */

const PATHS: Record<AgentFormat, string> = {
  agentry: "/p/.agentry/agents/a.md",
  agentscope: "/p/subagents/a.md",
  claude: "/p/.claude/agents/a.md",
  opencode: "/p/.opencode/agents/a.md",
  codex: "/p/.codex/agents/a.toml",
};

function load(format: AgentFormat, text: string) {
  const result = loadAgentFile(text, PATHS[format], { format });
  return { ...result, summary: summarize(result.diagnostics) };
}

const md = (...lines: string[]): string => ["---", "description: d", ...lines, "---", "Prompt."].join("\n");

function access(format: AgentFormat, text: string) {
  const { definition, summary } = load(format, text);
  if (definition === undefined) throw new Error(`not loaded:\n${summary.join("\n")}`);
  return { ...effectiveAccess(definition), definition, summary };
}

function expectError(format: AgentFormat, text: string, message: RegExp): void {
  const { definition, diagnostics } = load(format, text);
  expect(definition).toBeUndefined();
  expect(diagnostics.filter((d) => d.severity === "error").map((d) => d.message)).toEqual(
    expect.arrayContaining([expect.stringMatching(message)]),
  );
}

describe("OpenCode permission keys of tools that ask another permission (grep, glob, list, write)", () => {
  it.each(["grep", "glob", "list"])("%s denied everywhere removes the tool", (tool) => {
    const agent = access("opencode", md("permission:", `  ${tool}: deny`, "  edit: allow"));
    expect(agent.deniedTools).toContain(tool);
    expect(agent.summary).toContain(
      `info: permission: ${tool} is denied everywhere → removed the ${tool} tool (it asks read for each path it ${tool === "grep" ? "searches" : "lists"})`,
    );
  });

  it("write denied everywhere removes the write tool, and leaves edit to the edit rules", () => {
    const agent = access("opencode", md("permission:", "  write: deny", "  edit: allow"));
    expect(agent.deniedTools).toContain("write");
    expect(agent.deniedTools).not.toContain("edit");
    expect(evaluate(agent.rules, "edit", "src/a.ts")).toBe("allow");
  });

  it("a later blanket deny (`*`) removes a tool the file allowed before it", () => {
    const agent = access("opencode", md("permission:", "  grep: allow", '  "*": deny'));
    expect(agent.deniedTools).toContain("grep");
  });

  it("allowing one everywhere adds nothing: the tool follows the read rules", () => {
    const agent = access("opencode", md("permission:", '  "*": deny', "  grep: allow", "  read: allow"));
    expect(agent.deniedTools).not.toContain("grep");
    expect(agent.summary.filter((line) => !line.startsWith("info:"))).toEqual([]);
  });

  it("write allowed only under scratch/** fails the file (the write tool asks edit for each path)", () => {
    expectError(
      "opencode",
      md("permission:", "  write:", '    "*": deny', '    "scratch/**": allow'),
      /^permission: the rules for write cannot limit agentry's write tool.*asks edit for each path it writes/,
    );
  });

  it.each([
    ["an ask", ["  grep: ask"]],
    ["patterns", ["  glob:", '    "*": allow', '    "**/*.env": deny']],
    ["a pattern allowed after a blanket deny", ['  "*": deny', "  list:", '    "src/**": allow']],
  ])("%s fails the file", (_case, lines) => {
    expectError(
      "opencode",
      md("permission:", ...lines),
      /^permission: the rules for (grep|glob|list) cannot/,
    );
  });

  it("holds in every format: an agentry rule list naming grep is read the same way", () => {
    const agent = access(
      "agentry",
      md("permission:", "  - { permission: grep, pattern: '*', action: deny }"),
    );
    expect(agent.deniedTools).toContain("grep");
  });
});

describe("front matter that YAML reads short", () => {
  it("a document end line (`...`) before `tools: Read` fails the file", () => {
    const text = ["---", "name: a", "description: d", "...", "tools: Read", "---", "Prompt."].join("\n");
    for (const format of ["claude", "opencode", "agentry"] as const) {
      expectError(
        format,
        text,
        /^YAML ends the document at `...` \(line 4\).*"tools: Read" \(line 5\) would not be read/,
      );
    }
  });

  it("a `...` right before the closing `---`, or closing the front matter alone, still loads", () => {
    const end = access(
      "claude",
      ["---", "name: a", "description: d", "tools: Read", "...", "---", "P."].join("\n"),
    );
    expect(end.definition.tools).toEqual(["read"]);
    const pandoc = access(
      "claude",
      ["---", "name: a", "description: d", "tools: Read", "...", "P."].join("\n"),
    );
    expect(pandoc.definition.tools).toEqual(["read"]);
    expect(pandoc.definition.prompt).toBe("P.");
  });
});

describe("keys written with letters outside ASCII", () => {
  it.each([
    ["a Cyrillic о", "tоols: Read"],
    ["a Greek ο", "tοols: Read"],
    ["fullwidth letters", "ｔｏｏｌｓ: Read"],
    ["a Cyrillic і in permission", "permіssion: { edit: deny }"],
    ["an accent", "disallowedTóols: Bash"],
  ])("%s imitating a restriction fails the file", (_case, line) => {
    for (const format of ["claude", "opencode"] as const) {
      expectError(format, md(line), /is written with letters outside ASCII and reads as "/);
    }
  });

  it("other keys outside ASCII stay unknown keys", () => {
    const agent = access("claude", md("описание: агент"));
    expect(agent.summary).toEqual([
      'info: no name key → used the file stem "a" as name',
      "warning: описание: unknown key → ignored key описание",
    ]);
  });
});

describe("a lenient-reading problem that may hold a limit", () => {
  it("names the line, not an undefined key", () => {
    const { definition, diagnostics } = load(
      "claude",
      ["---", "description: d", "Tools Read, Grep", "---", "P."].join("\n"),
    );
    expect(definition).toBeUndefined();
    const messages = diagnostics.filter((d) => d.severity === "error").map((d) => d.message);
    expect(messages).toEqual([expect.stringMatching(/may hold a limit on what the agent may do$/)]);
    expect(messages.join()).not.toContain("undefined");
  });
});

describe("capabilities (Claude Code plugin agents' metadata)", () => {
  it("is read as part of the description, with a note, and limits nothing", () => {
    const agent = access(
      "claude",
      md("capabilities:", "  - defense_eval", "  - security_assessment", "priority: high"),
    );
    expect(agent.definition.description).toBe("d\n\nCapabilities: defense_eval, security_assessment.");
    expect(agent.definition.tools).toBeUndefined();
    expect(agent.summary).toContain(
      "info: capabilities describes the agent and limits nothing → added it to the description",
    );
  });

  it("written as one line, or capitalised, too", () => {
    expect(
      access("claude", md("Capabilities: design-review, system-architecture")).definition.description,
    ).toBe("d\n\nCapabilities: design-review, system-architecture.");
  });

  it("leaves out empty entries", () => {
    expect(access("claude", md("capabilities: review, , security,")).definition.description).toBe(
      "d\n\nCapabilities: review, security.",
    );
  });

  it("adds nothing and says nothing when it is empty", () => {
    const agent = access("claude", md("capabilities: []"));
    expect(agent.definition.description).toBe("d");
    expect(agent.summary).toEqual(['info: no name key → used the file stem "a" as name']);
  });

  it("fails the file when it names tools (it may be meant as a limit) or holds maps", () => {
    expectError("claude", md("capabilities: [Read, Grep]"), /^capabilities names tools \(Read, Grep\)/);
    expectError(
      "claude",
      md("capabilities:", "  - network_access: none"),
      /^capabilities is not a list of words/,
    );
  });
});
