import { describe, expect, it } from "vitest";
import { evaluate, evaluateRequest, findMatchingRule } from "../../src/permissions/evaluate.ts";
import type { Ruleset } from "../../src/permissions/types.ts";

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
    expect(evaluateRequest([{ permission: "task", pattern: "*", action: "allow" }], "task", []).action).toBe(
      "allow",
    );
  });
});
