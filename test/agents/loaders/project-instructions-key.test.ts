import { expect, it } from "vitest";
import { loadAgentryAgent } from "../../../src/agents/loaders/agentry.ts";
import { summarize } from "../fixtures.ts";

it("reads projectInstructions: false (an agent without the project's instruction files), and reports a value that is not a boolean", () => {
  const off = loadAgentryAgent(
    "---\ndescription: d\nprojectInstructions: false\n---\nGo.",
    "/p/.agentry/agents/lean.md",
  );
  expect(off.definition).toMatchObject({ name: "lean", projectInstructions: false });
  expect(off.diagnostics).toEqual([]);
  const bad = loadAgentryAgent(
    "---\ndescription: d\nprojectInstructions: nope\n---\nGo.",
    "/p/.agentry/agents/bad.md",
  );
  expect(bad.definition).not.toHaveProperty("projectInstructions");
  expect(summarize(bad.diagnostics)).toEqual([
    expect.stringContaining("projectInstructions: not true or false"),
  ]);
});
