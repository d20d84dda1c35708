import { describe, expect, it } from "vitest";
import { loadClaudeAgent } from "../../../src/agents/loaders/claude.ts";
import { readFixture, summarize } from "../fixtures.ts";

function load(name: string) {
  const { text, path } = readFixture(`claude/${name}`);
  const result = loadClaudeAgent(text, path);
  return { ...result, path, summary: summarize(result.diagnostics) };
}

describe("Claude Code agent files", () => {
  it("reads an unquoted ': ' inside a description leniently and says where strict YAML failed", () => {
    const { definition, diagnostics, path } = load("colon-in-description.md");
    expect(definition?.description).toBe(
      "Use when the backlog needs grooming. Triggers on: 'groom backlog', 'refine stories'.",
    );
    expect(definition?.tools).toEqual(["read", "grep", "glob"]);
    expect(diagnostics).toContainEqual(
      expect.objectContaining({
        severity: "warning",
        file: path,
        line: 3,
        message: expect.stringContaining("front matter is not valid YAML"),
        action: "read it with the lenient parser",
      }),
    );
  });

  it("reads literal block scalars and YAML tool lists", () => {
    const { definition, diagnostics } = load("block-scalars.md");
    expect(definition).toMatchObject({
      name: "block-scalars",
      description: "First line of a literal block.\nSecond line: with a colon.",
      tools: ["read", "bash"],
      model: "haiku",
      color: "cyan",
      prompt: "You use block scalars.",
    });
    expect(diagnostics).toEqual([]);
  });

  it("reads a folded scalar in invalid YAML and reports the line it could not read", () => {
    const { definition, summary, diagnostics } = load("folded-invalid.md");
    expect(definition?.description).toBe("A folded description over two lines.");
    expect(definition?.tools).toEqual(["read", "edit"]);
    expect(definition?.model).toBe("opus");
    expect(summary).toContain(
      'warning: could not read front matter line "Oops this line has no key" → ignored the line',
    );
    expect(diagnostics.find((d) => d.message.startsWith("could not read"))?.line).toBe(9);
    expect(summary).toContain("warning: notes: unknown key → ignored key notes");
  });

  it("turns literal \\n into line breaks and keeps <example> blocks", () => {
    const { definition } = load("example-blocks.md");
    expect(definition?.description).toBe(
      [
        "Use this agent after writing code.",
        "",
        "<example>",
        "Context: The user just wrote a function.",
        'user: "Please review my change"',
        `assistant: "I'll use the code-reviewer agent"`,
        "</example>",
      ].join("\n"),
    );
    // `inherit` means no model of its own.
    expect(definition).not.toHaveProperty("model");
  });

  it("gives `tools: []` no tools and a missing `tools` key the parent's tools", () => {
    expect(load("tools-empty-list.md").definition?.tools).toEqual([]);
    const inherit = load("tools-inherit.md").definition;
    expect(inherit).toBeDefined();
    expect(inherit).not.toHaveProperty("tools");
  });

  it("gives an agent whose tools are all unknown no tools, never all tools", () => {
    const { definition, summary } = load("tools-unknown-only.md");
    expect(definition?.tools).toEqual([]);
    expect(summary).toEqual(
      expect.arrayContaining([
        "info: agentry has no WebSearch tool → dropped tool WebSearch",
        "info: agentry has no WebFetch tool → dropped tool WebFetch",
        "warning: unknown tool FancyBrowser → dropped unknown tool FancyBrowser",
        "warning: none of the listed tools exist in agentry → gave the agent no tools",
      ]),
    );
  });

  it("maps other harnesses' tool names, keeps MCP names and drops unknown ones", () => {
    const { definition, summary } = load("tools-mixed.md");
    expect(definition?.tools).toEqual(["read", "edit", "list", "mcp__github__create_issue", "task"]);
    expect(summary).toContain("warning: unknown tool NotATool → dropped unknown tool NotATool");
  });

  it("turns Bash(prefix:*) and Task(a, b) into permission rules instead of granting the whole tool", () => {
    const { definition } = load("tools-patterns.md");
    expect(definition?.tools).toEqual(["read", "bash", "task"]);
    expect(definition?.disallowedTools).toEqual(["write"]);
    expect(definition?.permission).toEqual({
      bash: { "*": "deny", "git log *": "allow", "git diff *": "allow" },
      task: { "*": "deny", explore: "allow", plan: "allow" },
    });
  });

  it("keeps Task(a, b) whole inside a YAML flow list, which YAML splits at the comma", () => {
    const text = "---\ndescription: d\ntools: [Read, Task(explore, plan)]\n---\nx\n";
    const { definition } = loadClaudeAgent(text, "/p/.claude/agents/lead.md");
    expect(definition?.tools).toEqual(["read", "task"]);
    expect(definition?.permission).toEqual({ task: { "*": "deny", explore: "allow", plan: "allow" } });
  });

  it("names the agent from `name`, noting when it differs from the file name", () => {
    const { definition, summary } = load("name-differs.md");
    expect(definition?.name).toBe("security-auditor");
    expect(definition?.model).toBe("anthropic:claude-opus-4-1");
    expect(summary).toContain(
      'info: name "security-auditor" differs from the file name "name-differs" → named the agent "security-auditor"',
    );
  });

  it("falls back to the file stem without `name`, and keeps an unknown model with a warning", () => {
    const { definition, summary } = load("no-name.md");
    expect(definition?.name).toBe("no-name");
    expect(definition?.model).toBe("fable");
    expect(summary).toContain('info: no name key → used the file stem "no-name" as name');
    expect(summary.some((s) => s.startsWith('warning: model "fable" is not an alias'))).toBe(true);
  });

  it.each([
    ["colon-in-description.md", "sonnet"],
    ["folded-invalid.md", "opus"],
    ["block-scalars.md", "haiku"],
    ["example-blocks.md", undefined], // inherit
    ["tools-inherit.md", "anthropic:claude-sonnet-4-5-20250929"], // full id
    ["name-differs.md", "anthropic:claude-opus-4-1"], // provider/model
    ["no-name.md", "fable"], // unknown, kept with a warning
  ])("reads the model of %s as %s", (name, model) => {
    expect(load(name).definition?.model).toBe(model);
  });

  it("slugs a display name into a valid agent name", () => {
    const { definition, summary } = load("invalid-name.md");
    expect(definition?.name).toBe("code-reviewer-senior");
    expect(summary).toContain(
      'warning: "Code Reviewer (Senior)" is not a valid agent name → used "code-reviewer-senior" as name',
    );
  });

  it.each([
    ["no-front-matter.md", "no front matter"],
    ["unclosed.md", "front matter is not closed"],
    ["no-description.md", "no description"],
    ["bad-tools-type.md", "tools must be a comma-separated string or a list of tool names"],
  ])("skips %s with an error saying why", (name, reason) => {
    const { definition, diagnostics, path } = load(name);
    expect(definition).toBeUndefined();
    const errors = diagnostics.filter((d) => d.severity === "error");
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ file: path, action: "skipped the file" });
    expect(errors[0]?.message).toContain(reason);
  });

  it("maps Claude keys it understands and reports the ones it does not", () => {
    const { definition, summary } = load("unknown-keys.md");
    expect(definition).toMatchObject({
      permissionMode: "accept-edits",
      maxTurns: 12,
      workspace: { mode: "worktree" },
      skills: ["pdf"],
      hooks: { PreToolUse: [] },
    });
    expect(summary).toContain("warning: favouriteFood: unknown key → ignored key favouriteFood");
    expect(summary.filter((line) => /skills|hooks/.test(line))).toEqual([]);
  });

  it("records where the definition came from", () => {
    const { definition, path } = load("block-scalars.md");
    expect(definition?.source).toEqual({ kind: "project", format: "claude", path });
    expect(definition?.mode).toBe("subagent");
  });
});
