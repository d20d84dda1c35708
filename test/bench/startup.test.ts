import { expect, test } from "vitest";
import { measureStartup } from "../../bench/startup.ts";
import { expectWellFormed, rowNamed } from "./support.ts";

test("the start-up benchmark spawns the CLI to its first model request and probes its imports", async () => {
  const rows = await measureStartup({ runs: 1, variants: false, probeRuns: 1 });
  expectWellFormed(rows, "start-up");
  const first = rowNamed(rows, "agentry run → first model request");
  expect(first.goal).toEqual({ max: 300 });
  expect(first.samples[0]).toBeGreaterThan(rowNamed(rows, "node -e 0").samples[0]!);
  expect(rows.some((line) => line.figure === "start-up breakdown")).toBe(true);
}, 30_000);
