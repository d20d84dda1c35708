import { describe, expect, it } from "vitest";
import { claudeRule, claudeRuleText } from "../../src/permissions/claude-rule.ts";

/** Claude Code's permission strings (`.claude/settings.json`) read as agentry's rules. */
describe("claudeRule", () => {
  it.each([
    ["Bash", "bash"],
    ["Read", "read"],
    ["Grep", "read"],
    ["Glob", "read"],
    ["LS", "read"],
    ["Edit", "edit"],
    ["Write", "edit"],
    ["MultiEdit", "edit"],
    ["NotebookEdit", "edit"],
    ["Task", "task"],
    ["Agent", "task"],
    ["WebFetch", "webfetch"],
    ["WebSearch", "websearch"],
    ["bash", "bash"],
    ["read", "read"],
    ["grep", "read"],
    ["glob", "read"],
    ["list", "read"],
    ["edit", "edit"],
    ["write", "edit"],
    ["task", "task"],
    ["webfetch", "webfetch"],
    ["external_directory", "external_directory"],
  ])("%s is the %s permission, every pattern of it", (tool, permission) => {
    expect(claudeRule(tool)).toEqual({ permission, patterns: ["*"] });
    expect(claudeRule(`  ${tool}(*)  `)).toEqual({ permission, patterns: ["*"] });
    expect(claudeRule(`${tool}( )`)).toEqual({ permission, patterns: ["*"] });
  });

  it("Bash's prefix form `cmd:*` is `cmd *`; other specifiers stay as they are", () => {
    expect(claudeRule("Bash(git diff:*)")).toEqual({ permission: "bash", patterns: ["git diff *"] });
    expect(claudeRule("Bash( npm run test )")).toEqual({ permission: "bash", patterns: ["npm run test"] });
    expect(claudeRule("Bash(echo a:*b)")).toEqual({ permission: "bash", patterns: ["echo a:*b"] });
    expect(claudeRule("Task(explore)")).toEqual({ permission: "task", patterns: ["explore"] });
    expect(claudeRule("WebSearch(domain:x.dev)")).toEqual({
      permission: "websearch",
      patterns: ["domain:x.dev"],
    });
  });

  it("WebFetch(domain:x) is that host over http and https, the page and everything under it", () => {
    expect(claudeRule("WebFetch(domain:x.dev)")).toEqual({
      permission: "webfetch",
      patterns: ["https://x.dev", "https://x.dev/*", "http://x.dev", "http://x.dev/*"],
    });
    expect(claudeRule("WebFetch(https://x.dev/docs/*)")).toEqual({
      permission: "webfetch",
      patterns: ["https://x.dev/docs/*"],
    });
  });

  it("paths: //x is absolute, /x is from the project root, ./x and x from the workspace", () => {
    expect(claudeRule("Read(//etc/hosts)")).toEqual({ permission: "read", patterns: ["/etc/hosts"] });
    expect(claudeRule("Edit(/src/**)")).toEqual({ permission: "edit", patterns: ["src/**"] });
    expect(claudeRule("Read(./docs/x.md)")).toEqual({ permission: "read", patterns: ["docs/x.md"] });
    expect(claudeRule("Write(lib/a.ts)")).toEqual({ permission: "edit", patterns: ["lib/a.ts"] });
    expect(claudeRule("Read(src//x)")).toEqual({ permission: "read", patterns: ["src//x"] });
    expect(claudeRule("Read(src/./x)")).toEqual({ permission: "read", patterns: ["src/./x"] });
    expect(claudeRule("Read(src/)")).toEqual({ permission: "read", patterns: ["src/"] });
    expect(claudeRule("Read(src//)")).toEqual({ permission: "read", patterns: ["src//"] });
  });

  it("only read and edit patterns are paths: others keep their slashes", () => {
    // An absolute directory kept absolute: made relative, a deny of it would match nothing outside.
    expect(claudeRule("external_directory(/etc/**)")).toEqual({
      permission: "external_directory",
      patterns: ["/etc/**"],
    });
    expect(claudeRule("Task(./x)")).toEqual({ permission: "task", patterns: ["./x"] });
    expect(claudeRule("WebSearch(//x)")).toEqual({ permission: "websearch", patterns: ["//x"] });
  });

  it("an MCP server name covers all its tools; a tool name is that tool", () => {
    expect(claudeRule("mcp__github")).toEqual({ permission: "mcp__github__*", patterns: ["*"] });
    expect(claudeRule("mcp__github__create_issue")).toEqual({
      permission: "mcp__github__create_issue",
      patterns: ["*"],
    });
    expect(claudeRule("mcp__github__create_issue(repo-x)")).toEqual({
      permission: "mcp__github__create_issue",
      patterns: ["repo-x"],
    });
  });

  it("says why it cannot read a rule, and which tools it knows", () => {
    expect(claudeRule("Bash(ls")).toBe('cannot read rule "Bash(ls" (expected Tool or Tool(specifier))');
    expect(claudeRule("x Bash")).toBe('cannot read rule "x Bash" (expected Tool or Tool(specifier))');
    expect(claudeRule("Bash(ls) x")).toBe('cannot read rule "Bash(ls) x" (expected Tool or Tool(specifier))');
    expect(claudeRule("Fly(x)")).toBe(
      'unknown tool "Fly" in "Fly(x)" (known: Bash, Read, Grep, Glob, LS, Edit, Write, MultiEdit, NotebookEdit, Task, Agent, WebFetch, WebSearch, mcp__<server>__<tool>)',
    );
    expect(claudeRule("constructor")).toMatch(/^unknown tool "constructor"/);
  });
});

/** A rule shown the way Claude Code writes it (the "always" of a prompt names it so). */
describe("claudeRuleText", () => {
  it.each([
    ["a command prefix is Tool(prefix:*)", "bash", "npm test *", true, "Bash(npm test:*)"],
    ["an exact command ending in ` *` stays exact", "bash", "rm -f *", false, "Bash(rm -f *)"],
    ["a prefix without a ` *` tail stays as it is", "bash", "make", true, "Bash(make)"],
    ["a path pattern", "edit", "src/a.ts", false, "Edit(src/a.ts)"],
    ["a pattern of another tool ending in ` *`", "task", "review *", false, "Task(review *)"],
    [
      "a permission Claude Code has no name for keeps ours",
      "unsandboxed",
      "curl x",
      false,
      "unsandboxed(curl x)",
    ],
  ])("%s", (_behaviour, permission, pattern, commandPrefix, text) => {
    expect(claudeRuleText(permission, pattern, commandPrefix)).toBe(text);
  });
});
