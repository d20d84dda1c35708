import { expect, test } from "vitest";
import { measureFanOut } from "../../bench/fan-out.ts";
import { expectWellFormed, rowNamed } from "./support.ts";

test("the fan-out benchmark runs children through the real adapter and reports wall ÷ ideal", async () => {
  const rows = await measureFanOut({ sizes: [2], calls: 1, latencyMs: 20, runs: 1, warmup: 0 });
  expectWellFormed(rows, "fan-out");
  // Wall time can never beat the model latency alone.
  expect(rowNamed(rows, "N = 2").samples[0]).toBeGreaterThanOrEqual(1);
});
