import { describe, expect, it } from "vitest";
import {
  canSpawn,
  deriveChildRules,
  filterSpawnable,
  isToolHidden,
  toolPermission,
  visibleTools,
} from "../../src/permissions/derive.ts";
import { evaluate } from "../../src/permissions/evaluate.ts";
import type { Ruleset } from "../../src/permissions/types.ts";

describe("deriveChildRules", () => {
  const root: Ruleset = [
    { permission: "bash", pattern: "*", action: "allow" },
    { permission: "bash", pattern: "git push *", action: "deny" },
    { permission: "edit", pattern: "secrets/*", action: "deny" },
  ];

  it("puts every parent deny after the child's own rules", () => {
    const child = deriveChildRules(root, [{ permission: "bash", pattern: "git *", action: "allow" }]);
    expect(child).toEqual([{ permission: "bash", pattern: "git *", action: "allow" }, root[1], root[2]]);
    expect(evaluate(child, "bash", "git status")).toBe("allow");
    expect(evaluate(child, "bash", "git push origin")).toBe("deny");
    // The parent's allow is not inherited: the child's rules decide what is open.
    expect(evaluate(child, "bash", "make")).toBe("ask");
  });

  it("keeps the root's denies at depth 2 even when the middle agent allows everything", () => {
    const middle = deriveChildRules(root, [{ permission: "*", pattern: "*", action: "allow" }]);
    const leaf = deriveChildRules(middle, [
      { permission: "edit", pattern: "*", action: "allow" },
      { permission: "bash", pattern: "*", action: "allow" },
    ]);
    expect(evaluate(leaf, "bash", "git push --force")).toBe("deny");
    expect(evaluate(leaf, "edit", "secrets/key.pem")).toBe("deny");
    expect(evaluate(leaf, "edit", "src/a.ts")).toBe("allow");
  });

  it("passes a middle agent's own denies down too", () => {
    const middle = deriveChildRules([], [{ permission: "task", pattern: "*", action: "deny" }]);
    const leaf = deriveChildRules(middle, [{ permission: "task", pattern: "*", action: "allow" }]);
    expect(canSpawn(leaf, "explore")).toBe(false);
  });
});

describe("isToolHidden / visibleTools", () => {
  it("hides a tool whose rules deny '*' with nothing later opening it", () => {
    expect(isToolHidden([{ permission: "edit", pattern: "*", action: "deny" }], "edit")).toBe(true);
    expect(isToolHidden([{ permission: "*", pattern: "*", action: "deny" }], "bash")).toBe(true);
  });

  it("keeps a tool that a later rule allows or asks for some pattern", () => {
    const readOnlyBash: Ruleset = [
      { permission: "bash", pattern: "*", action: "deny" },
      { permission: "bash", pattern: "ls *", action: "allow" },
    ];
    expect(isToolHidden(readOnlyBash, "bash")).toBe(false);
    expect(
      isToolHidden(
        [
          { permission: "*", pattern: "*", action: "deny" },
          { permission: "read", pattern: "*", action: "allow" },
        ],
        "read",
      ),
    ).toBe(false);
  });

  it("keeps a tool when the deny is narrower than '*' or comes before an allow of everything", () => {
    expect(isToolHidden([{ permission: "edit", pattern: "src/*", action: "deny" }], "edit")).toBe(false);
    expect(isToolHidden([], "edit")).toBe(false);
    expect(
      isToolHidden(
        [
          { permission: "edit", pattern: "*", action: "allow" },
          { permission: "edit", pattern: "*", action: "deny" },
        ],
        "edit",
      ),
    ).toBe(true);
  });

  it("hides a tool the ordinary rules deny, whatever a narrowing rule after them allows", () => {
    // A narrowing allow never lifts a deny (`findMatchingRule`), so it opens nothing.
    const rules: Ruleset = [
      { permission: "bash", pattern: "*", action: "deny" },
      { permission: "bash", pattern: "ls *", action: "allow", narrowOnly: true },
    ];
    expect(isToolHidden(rules, "bash")).toBe(true);
    expect(evaluate(rules, "bash", "ls")).toBe("deny");
  });

  it("maps built-in tools onto their permissions", () => {
    expect(
      ["read", "grep", "glob", "list", "write", "edit", "bash", "task", "task_wait"].map(toolPermission),
    ).toEqual(["read", "read", "read", "read", "edit", "edit", "bash", "task", "task"]);
    const tools = ["read", "grep", "write", "edit", "bash", "task", "task_wait"].map((name) => ({ name }));
    const rules: Ruleset = [
      { permission: "edit", pattern: "*", action: "deny" },
      { permission: "task", pattern: "*", action: "deny" },
    ];
    expect(visibleTools(tools, rules).map((tool) => tool.name)).toEqual(["read", "grep", "bash"]);
  });
});

describe("canSpawn / filterSpawnable", () => {
  const rules: Ruleset = [
    { permission: "task", pattern: "*", action: "deny" },
    { permission: "task", pattern: "explore", action: "allow" },
    { permission: "task", pattern: "review*", action: "ask" },
  ];

  it("offers agents that are allowed or asked, never denied ones", () => {
    expect(canSpawn(rules, "explore")).toBe(true);
    expect(canSpawn(rules, "review-strict")).toBe(true);
    expect(canSpawn(rules, "general-purpose")).toBe(false);
    expect(filterSpawnable(rules, ["general-purpose", "explore", "plan", "review"])).toEqual([
      "explore",
      "review",
    ]);
  });

  it("offers every agent when no rule mentions task", () => {
    expect(filterSpawnable([], ["a", "b"])).toEqual(["a", "b"]);
  });
});
