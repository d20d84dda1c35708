import { expect, test } from "vitest";
import { measureRemote } from "../../bench/remote.ts";
import { expectWellFormed, rowNamed } from "./support.ts";

test("the remote benchmark times local and A2A delegations, with the overhead row and its goal", async () => {
  const rows = await measureRemote({ runs: 2, warmup: 1 });
  expectWellFormed(rows, "remote delegation");
  expect(rowNamed(rows, "A2A overhead per delegation").goal).toEqual({ max: 30 });
  expect(rowNamed(rows, "remote child over A2A").samples).toHaveLength(2);
});
