import { expect, test } from "vitest";
import { measureTaskStore } from "../../bench/task-store.ts";
import { expectWellFormed, rowNamed } from "./support.ts";

test("the task-store benchmark lists, watches and cancels across processes", async () => {
  const rows = await measureTaskStore({ records: 200, files: 2, runs: 1, cancelRuns: 1 });
  expectWellFormed(rows, "task store");
  expect(rowNamed(rows, "status change seen by another process").goal).toEqual({ max: 200 });
  expect(rowNamed(rows, "cancel latency").goal).toEqual({ max: 1000 });
}, 30_000);
