import { expect, it } from "vitest";
import { evaluate } from "../../src/permissions/evaluate.ts";
import type { Ruleset } from "../../src/permissions/types.ts";
import { jobDataSchema } from "../../src/queue/job-data.ts";

it("a job keeps the narrowing mark of an untrusted project's rules, so a worker cannot take their allows as real", () => {
  const sent: Ruleset = [
    { permission: "bash", pattern: "*", action: "ask" },
    { permission: "bash", pattern: "*", action: "allow", narrowOnly: true },
  ];
  const received = jobDataSchema.shape.rules.parse(JSON.parse(JSON.stringify(sent))) as Ruleset;
  expect(received).toEqual(sent);
  expect(evaluate(received, "bash", "curl evil.example")).toBe("ask");
});
