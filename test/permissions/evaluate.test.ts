import { describe, expect, it } from "vitest";
import { evaluate, evaluateRequest, findMatchingRule } from "../../src/permissions/evaluate.ts";
import type { PermissionRule, Ruleset } from "../../src/permissions/types.ts";

const rules: Ruleset = [
  { permission: "bash", pattern: "*", action: "ask" },
  { permission: "bash", pattern: "git *", action: "allow" },
  { permission: "bash", pattern: "git push *", action: "deny" },
  { permission: "edit", pattern: "*", action: "deny" },
  { permission: "edit", pattern: "docs/*", action: "allow" },
];

describe("evaluate", () => {
  it("lets the last matching rule win", () => {
    expect(evaluate(rules, "bash", "git status")).toBe("allow");
    expect(evaluate(rules, "bash", "git push origin main")).toBe("deny");
    expect(evaluate(rules, "edit", "docs/a.md")).toBe("allow");
    expect(evaluate(rules, "edit", "src/a.ts")).toBe("deny");
    // The same rules in the other order: the broad rule now comes last and wins.
    expect(evaluate([rules[2]!, rules[1]!], "bash", "git push x")).toBe("allow");
  });

  it("asks when no rule matches", () => {
    expect(evaluate(rules, "webfetch", "https://example.com")).toBe("ask");
    expect(evaluate([], "bash", "ls")).toBe("ask");
    expect(findMatchingRule(rules, "webfetch", "x")).toBeUndefined();
  });

  it("matches the permission as a wildcard too", () => {
    const mcp: Ruleset = [{ permission: "mcp__github__*", pattern: "*", action: "deny" }];
    expect(evaluate(mcp, "mcp__github__create_issue", "*")).toBe("deny");
    expect(evaluate(mcp, "mcp__slack__post", "*")).toBe("ask");
  });
});

describe("a narrowing rule (an untrusted repository's)", () => {
  const narrow = (rule: PermissionRule): PermissionRule => ({ ...rule, narrowOnly: true });
  const rmDenied = narrow({ permission: "bash", pattern: "rm *", action: "deny" });

  it("decides where no other rule matches, when it is stricter than the ask that no match means", () => {
    expect(findMatchingRule([rmDenied], "bash", "rm -rf x")).toBe(rmDenied);
    expect(evaluate([rmDenied], "bash", "rm -rf x")).toBe("deny");
    expect(evaluate([narrow({ permission: "bash", pattern: "*", action: "allow" })], "bash", "make")).toBe(
      "ask",
    );
  });

  it("leaves the verdict, and the rule named for it, to the others where it is no stricter", () => {
    // The rule that decides is the one an "always" approves the pattern of, and a refusal names.
    const own = { permission: "read", pattern: "*.env", action: "ask" } as const;
    const theirs = narrow({ permission: "read", pattern: "*", action: "ask" });
    expect(findMatchingRule([own, theirs], "read", "a.env")).toBe(own);
    const ownDeny = { permission: "bash", pattern: "rm -rf *", action: "deny" } as const;
    expect(findMatchingRule([ownDeny, rmDenied], "bash", "rm -rf x")).toBe(ownDeny);
  });
});

describe("evaluateRequest", () => {
  it("allows only when every pattern is allowed", () => {
    expect(evaluateRequest(rules, "bash", ["git status", "git log"]).action).toBe("allow");
    expect(evaluateRequest(rules, "bash", ["git status", "make"]).action).toBe("ask");
  });

  it("denies when any pattern is denied, naming the rule", () => {
    const decision = evaluateRequest(rules, "bash", ["git status", "git push x", "make"]);
    expect(decision.action).toBe("deny");
    expect(decision.patterns[1]).toEqual({ pattern: "git push x", action: "deny", rule: rules[2] });
    expect(decision.patterns[2]).toEqual({ pattern: "make", action: "ask", rule: rules[0] });
  });

  it("evaluates a request without patterns as '*'", () => {
    expect(evaluateRequest(rules, "edit", []).action).toBe("deny");
    expect(evaluateRequest([], "webfetch", []).patterns).toEqual([{ pattern: "*", action: "ask" }]);
    expect(evaluateRequest([{ permission: "task", pattern: "*", action: "allow" }], "task", []).action).toBe(
      "allow",
    );
  });
});
