import { expect, it } from "vitest";
import { evaluate } from "../../src/permissions/evaluate.ts";
import type { Ruleset } from "../../src/permissions/types.ts";
import { loopChildSpecSchema } from "../../src/subagents/child/child-spec.ts";

it("a spec keeps the narrowing mark of an untrusted project's rules, so a worker cannot take their allows as real", () => {
  const sent: Ruleset = [
    { permission: "bash", pattern: "*", action: "ask" },
    { permission: "bash", pattern: "*", action: "allow", narrowOnly: true },
  ];
  const received = loopChildSpecSchema.shape.rules.parse(JSON.parse(JSON.stringify(sent))) as Ruleset;
  expect(received).toEqual(sent);
  expect(evaluate(received, "bash", "curl evil.example")).toBe("ask");
});
