import { describe, expect, it } from "vitest";
import { DEFAULT_RULES } from "../../src/permissions/defaults.ts";
import { isToolHidden } from "../../src/permissions/derive.ts";
import { evaluate, evaluateRequest } from "../../src/permissions/evaluate.ts";
import { confineProjectRules } from "../../src/permissions/project-rules.ts";
import type { Ruleset } from "../../src/permissions/types.ts";

const user: Ruleset = [
  ...DEFAULT_RULES,
  { permission: "bash", pattern: "npm test *", action: "allow" },
  { permission: "bash", pattern: "rm *", action: "deny" },
];

/** The root's rules as the CLI lays them out: defaults and the user's, then the project's. */
function root(project: Ruleset, trusted: boolean): Ruleset {
  return [...user, ...confineProjectRules(project, user, trusted).rules];
}

describe("a repository's rules in a folder the user has not trusted", () => {
  it("narrow: a deny and an ask apply at once", () => {
    const rules = root(
      [
        { permission: "read", pattern: "secrets/**", action: "deny" },
        { permission: "bash", pattern: "npm test *", action: "ask" },
      ],
      false,
    );
    expect(evaluate(rules, "read", "secrets/key.pem")).toBe("deny");
    expect(evaluate(rules, "bash", "npm test -- --watch")).toBe("ask");
    expect(evaluate(rules, "read", "src/a.ts")).toBe("allow");
  });

  it("never widen: an allow, even of everything, leaves the user's verdicts as they were", () => {
    const rules = root([{ permission: "*", pattern: "*", action: "allow" }], false);
    expect(evaluate(rules, "edit", "src/a.ts")).toBe("ask");
    expect(evaluate(rules, "bash", "rm -rf /")).toBe("deny");
    expect(evaluate(rules, "unsandboxed", "curl x")).toBe("ask");
    expect(evaluate(rules, "external_directory", "/etc/passwd")).toBe("ask");
    // What the user allowed stays allowed.
    expect(evaluate(rules, "bash", "npm test")).toBe("allow");
  });

  it("cannot lift a user's deny with an ask of its own", () => {
    const rules = root([{ permission: "bash", pattern: "*", action: "ask" }], false);
    expect(evaluate(rules, "bash", "rm x")).toBe("deny");
    expect(evaluate(rules, "bash", "npm test")).toBe("ask");
  });

  it("keeps its own exceptions: an allow inside its deny leaves the user's verdict", () => {
    const rules = root(
      [
        { permission: "bash", pattern: "*", action: "deny" },
        { permission: "bash", pattern: "npm test *", action: "allow" },
        { permission: "bash", pattern: "git status *", action: "allow" },
      ],
      false,
    );
    expect(evaluate(rules, "bash", "npm test")).toBe("allow");
    expect(evaluate(rules, "bash", "git status")).toBe("allow"); // the defaults allow it
    expect(evaluate(rules, "bash", "make")).toBe("deny");
    expect(isToolHidden(rules, "bash")).toBe(false);
  });

  it("hides a tool it denies outright, and no later rule of the user's brings it back", () => {
    const rules: Ruleset = [
      ...root([{ permission: "bash", pattern: "*", action: "deny" }], false),
      { permission: "bash", pattern: "ls", action: "allow" },
    ];
    expect(isToolHidden(rules, "bash")).toBe(true);
    expect(evaluateRequest(rules, "bash", ["ls"]).action).toBe("deny");
  });

  it("lists every allow as withheld", () => {
    const allow = { permission: "bash", pattern: "make *", action: "allow" } as const;
    const { withheld } = confineProjectRules(
      [allow, { permission: "read", pattern: "x", action: "deny" }],
      user,
      false,
    );
    expect(withheld).toEqual([allow]);
  });
});

describe("a repository's rules in a trusted folder", () => {
  it("apply as written, an allow included", () => {
    const rules = root(
      [
        { permission: "edit", pattern: "src/**", action: "allow" },
        { permission: "bash", pattern: "rm build/*", action: "allow" },
      ],
      true,
    );
    expect(evaluate(rules, "edit", "src/a.ts")).toBe("allow");
    expect(evaluate(rules, "bash", "rm build/x")).toBe("allow");
  });

  it("never allow leaving the sandbox or the workspace: those stay the user's", () => {
    const project: Ruleset = [
      { permission: "*", pattern: "*", action: "allow" },
      { permission: "unsandboxed", pattern: "*", action: "allow" },
      { permission: "external_directory", pattern: "/tmp/*", action: "allow" },
    ];
    const rules = root(project, true);
    expect(evaluate(rules, "unsandboxed", "curl x")).toBe("ask");
    expect(evaluate(rules, "external_directory", "/tmp/x")).toBe("ask");
    expect(evaluate(rules, "edit", "src/a.ts")).toBe("allow");
    expect(confineProjectRules(project, user, true).withheld.map((rule) => rule.permission)).toEqual([
      "unsandboxed",
      "unsandboxed",
      "external_directory",
      "external_directory",
    ]);
  });

  it("keeps the user's own allow of those, and the project's deny of them still narrows", () => {
    const mine: Ruleset = [...user, { permission: "unsandboxed", pattern: "docker *", action: "allow" }];
    const project: Ruleset = [{ permission: "unsandboxed", pattern: "docker push *", action: "deny" }];
    const confined = confineProjectRules(project, mine, true);
    const rules = [...mine, ...confined.rules];
    expect(evaluate(rules, "unsandboxed", "docker build .")).toBe("allow");
    expect(evaluate(rules, "unsandboxed", "docker push x")).toBe("deny");
    // Only an allow is withheld: the deny applies.
    expect(confined.withheld).toEqual([]);
  });

  it("ask before leaving the sandbox or the workspace even where the rules before them say nothing of those", () => {
    // A base with no rule for either permission (a user's own list without the defaults).
    const base: Ruleset = [{ permission: "bash", pattern: "*", action: "ask" }];
    const rules = [
      ...base,
      ...confineProjectRules([{ permission: "*", pattern: "*", action: "allow" }], base, true).rules,
    ];
    expect(evaluate(rules, "unsandboxed", "curl x")).toBe("ask");
    expect(evaluate(rules, "external_directory", "/etc/passwd")).toBe("ask");
    expect(evaluate(rules, "bash", "make")).toBe("allow");
  });
});
