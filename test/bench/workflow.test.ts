import { expect, test } from "vitest";
import { measureWorkflow } from "../../bench/workflow.ts";
import { expectWellFormed, rowNamed } from "./support.ts";

test("the workflow benchmark runs a pipeline of real children and reports the harness's share", async () => {
  const rows = await measureWorkflow({ runs: 1, warmup: 0, items: 2, modelMs: 50 });
  expectWellFormed(
    rows.map((line) => ({ ...line, samples: line.samples.map(Math.abs) })),
    "workflow overhead",
  );
  expect(rowNamed(rows, "wall time beyond the model's").goal).toEqual({ max: 5 });
  expect(rowNamed(rows, "CPU per agent call").samples[0]).toBeGreaterThan(0);
});
