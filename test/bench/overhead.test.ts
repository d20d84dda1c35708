import { expect, test } from "vitest";
import { measureOverhead } from "../../bench/overhead.ts";
import { expectWellFormed, rowNamed } from "./support.ts";

test("the overhead benchmark times turns on resumed sessions, with the growth row", async () => {
  const rows = await measureOverhead({ sizes: [10, 100, 1000], turns: 3, runs: 1, warmup: 0, wireSizes: [] });
  expectWellFormed(rows, "harness overhead");
  expect(rowNamed(rows, "CPU per turn, 100 messages").goal).toEqual({ max: 1 });
  expect(rowNamed(rows, "growth").samples).toHaveLength(1);
});
