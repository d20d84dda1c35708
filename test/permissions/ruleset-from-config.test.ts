import { describe, expect, it } from "vitest";
import { errorKind } from "../../src/errors/agentry-error.ts";
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

describe("rulesetFromConfig, at its edges", () => {
  it("null is no rules", () => {
    expect(rulesetFromConfig(null)).toEqual([]);
  });

  it("./ is dropped from the path patterns of read, edit, grep, glob and list (./ alone is every path), not from others", () => {
    const value = Object.fromEntries(
      ["read", "edit", "grep", "glob", "list", "bash"].map((permission) => [
        permission,
        { "./src/**": "deny", "./": "ask" },
      ]),
    );
    expect(rulesetFromConfig(value)).toEqual([
      ...["read", "edit", "grep", "glob", "list"].flatMap((permission) => [
        { permission, pattern: "src/**", action: "deny" },
        { permission, pattern: "*", action: "ask" },
      ]),
      { permission: "bash", pattern: "./src/**", action: "deny" },
      { permission: "bash", pattern: "./", action: "ask" },
    ]);
  });

  it("an allow/ask/deny key that is not a list is a permission named so, OpenCode's way", () => {
    expect(rulesetFromConfig({ allow: "deny" })).toEqual([
      { permission: "allow", pattern: "*", action: "deny" },
    ]);
  });

  it("says what is wrong with each bad entry, as the user wrote it", () => {
    const issues = (value: unknown) => {
      try {
        rulesetFromConfig(value);
      } catch (error) {
        if (error instanceof PermissionConfigError) return error.issues;
      }
      throw new Error("no error");
    };
    expect(issues({ "": "deny", bash: [1] })).toEqual([
      'permission[""]: permission name must not be empty',
      'permission.bash: must be "allow", "ask" or "deny" or a map of pattern to action (got [1])',
    ]);
    expect(issues([{ pattern: "*", action: "deny" }])).toEqual(["permission[0].permission: is required"]);
    expect(issues([{ permission: "", pattern: "*", action: "deny" }])).toEqual([
      'permission[0].permission: must not be empty (e.g. bash, edit, read, task) (got "")',
    ]);
    expect(issues([{ permission: "bash", pattern: 7, action: "deny" }])).toEqual([
      "permission[0].pattern: must be a string (e.g. *, git status *, src/**) (got 7)",
    ]);
    expect(issues([5])).toEqual([
      "permission[0]: must be a rule object {permission, pattern, action} (got 5)",
    ]);
    // A missing action is named like a wrong one, with nothing to show for what was given.
    expect(issues([{ permission: "bash", pattern: "*" }])).toEqual([
      'permission[0].action: must be "allow", "ask" or "deny"',
    ]);
    expect(issues({ bash: null })).toEqual([
      'permission.bash: must be "allow", "ask" or "deny" or a map of pattern to action (got null)',
    ]);
    expect(issues({ allow: [1], ask: [], deny: [] })).toEqual([
      'permission.allow[0]: must be a string like "Bash(git diff:*)" (got 1)',
    ]);
    expect(issues({ ask: [true] })).toEqual([
      'permission.ask[0]: must be a string like "Bash(git diff:*)" (got true)',
    ]);
    expect(issues({ allow: [], one: 1, two: 2 })).toEqual([
      "permission.one: unknown key (expected allow, ask, deny); permission.two: unknown key (expected allow, ask, deny)",
    ]);
    const long = "x".repeat(70);
    expect(issues({ bash: long })).toEqual([
      `permission.bash: must be "allow", "ask" or "deny" or a map of pattern to action (got "${"x".repeat(56)}...)`,
    ]);
    const sixty = "y".repeat(58);
    expect(issues({ bash: sixty })).toEqual([
      `permission.bash: must be "allow", "ask" or "deny" or a map of pattern to action (got "${sixty}")`,
    ]);
  });

  it("is the user's to fix, every issue on a line of its own", () => {
    let caught: unknown;
    try {
      rulesetFromConfig({ "": "deny", bash: 1 });
    } catch (error) {
      caught = error;
    }
    expect(errorKind(caught)).toBe("user");
    expect(String(caught)).toBe(
      'PermissionConfigError: invalid permission rules:\n  permission[""]: permission name must not be empty\n' +
        '  permission.bash: must be "allow", "ask" or "deny" or a map of pattern to action (got 1)',
    );
  });
});
