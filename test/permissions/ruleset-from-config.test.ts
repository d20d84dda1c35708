import { describe, expect, it } from "vitest";
import { evaluate } from "../../src/permissions/evaluate.ts";
import { PermissionConfigError, rulesetFromConfig } from "../../src/permissions/ruleset-from-config.ts";

function errorOf(value: unknown): PermissionConfigError {
  try {
    rulesetFromConfig(value);
  } catch (error) {
    if (error instanceof PermissionConfigError) return error;
    throw error;
  }
  throw new Error("expected a PermissionConfigError");
}

describe("rulesetFromConfig: our list form", () => {
  it("keeps the rules in order and normalizes ./ in path patterns", () => {
    expect(
      rulesetFromConfig([
        { permission: "bash", pattern: "*", action: "ask" },
        { permission: "edit", pattern: "./src/**", action: "allow" },
      ]),
    ).toEqual([
      { permission: "bash", pattern: "*", action: "ask" },
      { permission: "edit", pattern: "src/**", action: "allow" },
    ]);
  });

  it("names the bad key and index", () => {
    const error = errorOf([
      { permission: "bash", pattern: "*", action: "ask" },
      { permission: "bash", pattern: "git *", action: "yes" },
      { permission: "bash", patern: "x", action: "deny" },
    ]);
    expect(error.issues).toContain('permission[1].action: must be "allow", "ask" or "deny" (got "yes")');
    expect(error.message).toContain(
      "permission[2].patern: unknown key (expected permission, pattern, action)",
    );
    expect(error.message).toContain("permission[2].pattern: is required");
  });
});

describe("rulesetFromConfig: OpenCode maps", () => {
  it("reads actions and pattern maps in key order", () => {
    const rules = rulesetFromConfig({
      edit: "deny",
      bash: { "*": "ask", "git status": "allow", "git push *": "deny" },
      task: { "*": "deny", explore: "allow" },
    });
    expect(rules).toEqual([
      { permission: "edit", pattern: "*", action: "deny" },
      { permission: "bash", pattern: "*", action: "ask" },
      { permission: "bash", pattern: "git status", action: "allow" },
      { permission: "bash", pattern: "git push *", action: "deny" },
      { permission: "task", pattern: "*", action: "deny" },
      { permission: "task", pattern: "explore", action: "allow" },
    ]);
    expect(evaluate(rules, "task", "explore")).toBe("allow");
    expect(evaluate(rules, "task", "general-purpose")).toBe("deny");
  });

  it("names the bad key, quoting keys that are not identifiers", () => {
    const error = errorOf({ edit: "nope", bash: { "git status": "yes" }, webfetch: 3 });
    expect(error.issues).toEqual([
      'permission.edit: must be "allow", "ask" or "deny" or a map of pattern to action (got "nope")',
      'permission.bash["git status"]: must be "allow", "ask" or "deny" (got "yes")',
      'permission.webfetch: must be "allow", "ask" or "deny" or a map of pattern to action (got 3)',
    ]);
  });

  it("accepts one action for everything", () => {
    expect(rulesetFromConfig("allow")).toEqual([{ permission: "*", pattern: "*", action: "allow" }]);
    expect(() => rulesetFromConfig("sure")).toThrow(/permission: must be "allow", "ask" or "deny"/);
  });
});

describe("rulesetFromConfig: Claude Code lists", () => {
  it("maps tool names and specifiers, with deny applied last", () => {
    const rules = rulesetFromConfig({
      deny: ["Bash(git push:*)", "Read(./.env)"],
      allow: [
        "Bash(git diff:*)",
        "Read(src/**)",
        "Edit",
        "Grep",
        "Task(explore)",
        "WebFetch(domain:example.com)",
      ],
      ask: ["Write(//etc/hosts)", "mcp__github"],
    });
    expect(rules).toEqual([
      { permission: "bash", pattern: "git diff *", action: "allow" },
      { permission: "read", pattern: "src/**", action: "allow" },
      { permission: "edit", pattern: "*", action: "allow" },
      { permission: "read", pattern: "*", action: "allow" },
      { permission: "task", pattern: "explore", action: "allow" },
      { permission: "webfetch", pattern: "https://example.com", action: "allow" },
      { permission: "webfetch", pattern: "https://example.com/*", action: "allow" },
      { permission: "webfetch", pattern: "http://example.com", action: "allow" },
      { permission: "webfetch", pattern: "http://example.com/*", action: "allow" },
      { permission: "edit", pattern: "/etc/hosts", action: "ask" },
      { permission: "mcp__github__*", pattern: "*", action: "ask" },
      { permission: "bash", pattern: "git push *", action: "deny" },
      { permission: "read", pattern: ".env", action: "deny" },
    ]);
    expect(evaluate(rules, "bash", "git diff")).toBe("allow");
    expect(evaluate(rules, "bash", "git push origin")).toBe("deny");
    expect(evaluate(rules, "read", ".env")).toBe("deny");
    expect(evaluate(rules, "read", "src/a/b.ts")).toBe("allow");
    expect(evaluate(rules, "mcp__github__create_issue", "*")).toBe("ask");
  });

  it("names unknown tools and unknown keys", () => {
    const error = errorOf({ allow: ["Bash(ls:*)", "Frobnicate(x)"] });
    expect(error.issues).toHaveLength(1);
    expect(error.issues[0]).toMatch(
      /^permission\.allow\[1\]: unknown tool "Frobnicate" in "Frobnicate\(x\)" \(known: Bash, Read/,
    );
    expect(errorOf({ allow: ["Bash"], defaultMode: "plan" }).message).toContain(
      "permission.defaultMode: unknown key (expected allow, ask, deny)",
    );
    expect(errorOf({ deny: ["Bash(", 4] }).issues).toEqual([
      'permission.deny[1]: must be a string like "Bash(git diff:*)" (got 4)',
    ]);
  });
});

describe("rulesetFromConfig: other values", () => {
  it("treats absence as no rules and refuses other types", () => {
    expect(rulesetFromConfig(undefined)).toEqual([]);
    expect(() => rulesetFromConfig(5, "agents.x.permission")).toThrow(
      /agents\.x\.permission: must be a list of rules, a map of permission to action, or \{allow, ask, deny\} lists/,
    );
  });
});
