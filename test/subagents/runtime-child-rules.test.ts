import { expect, test } from "vitest";
import type { AgentDefinition } from "../../src/agents/definition.ts";
import { AgentPermissionError } from "../../src/agents/definition-rules.ts";
import { evaluate } from "../../src/permissions/evaluate.ts";
import type { Ruleset } from "../../src/permissions/types.ts";
import { childRules } from "../../src/subagents/child/child-config.ts";

const base: Ruleset = [
  { permission: "edit", pattern: "*", action: "ask" },
  { permission: "bash", pattern: "*", action: "ask" },
];
const definition = (extra: Partial<AgentDefinition>): AgentDefinition => ({
  name: "x",
  description: "x",
  prompt: "x",
  mode: "subagent",
  source: { kind: "programmatic", format: "agentry" },
  ...extra,
});

test("a definition may settle what the base leaves to ask", () => {
  const rules = childRules(base, base, definition({ permission: { edit: "allow" } }));
  expect(evaluate(rules, "edit", "src/a.ts")).toBe("allow");
});

test("no deny of the parent can be lifted by the child's definition", () => {
  const parent: Ruleset = [...base, { permission: "bash", pattern: "rm *", action: "deny" }];
  const rules = childRules(base, parent, definition({ permission: { bash: "allow" } }));
  expect(evaluate(rules, "bash", "rm -rf x")).toBe("deny");
  expect(evaluate(rules, "bash", "ls")).toBe("allow");
});

test("allows of an intermediate agent are not inherited", () => {
  const parent = childRules(base, base, definition({ permission: { edit: { "docs/*": "allow" } } }));
  const grandchild = childRules(base, parent, definition({}));
  expect(evaluate(parent, "edit", "docs/a.md")).toBe("allow");
  expect(evaluate(grandchild, "edit", "docs/a.md")).toBe("ask");
});

test("read-only bash and plan mode narrow the child", () => {
  const readOnly = childRules(base, base, definition({ readOnlyBash: true }));
  expect(evaluate(readOnly, "bash", "cat a.txt")).toBe("allow");
  expect(evaluate(readOnly, "bash", "touch a.txt")).toBe("deny");
  const plan = childRules(base, base, definition({ permissionMode: "plan", permission: { edit: "allow" } }));
  expect(evaluate(plan, "edit", "a.txt")).toBe("deny");
  expect(evaluate(plan, "bash", "rm a.txt")).toBe("deny");
});

test("plan mode's read-only allowlist does not lift a deny of the definition", () => {
  const rules = childRules(
    base,
    base,
    definition({ permissionMode: "plan", permission: { bash: { "cat *": "deny" } } }),
  );
  expect(evaluate(rules, "bash", "cat .env")).toBe("deny");
  expect(evaluate(rules, "bash", "ls")).toBe("allow");
  expect(evaluate(rules, "edit", "src/a.ts")).toBe("deny");
});

test("unreadable permission rules in a definition are a clear error", () => {
  const bad = definition({ permission: { bash: "sometimes" } as never });
  expect(() => childRules(base, base, bad)).toThrow(AgentPermissionError);
  expect(() => childRules(base, base, bad)).toThrow(
    /agent "x" permission\.bash: must be "allow", "ask" or "deny"/,
  );
});
