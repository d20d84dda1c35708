import { expect, test } from "vitest";
import { measureTaskStore } from "../../bench/task-store.ts";
import { cliBin, SOURCE_BIN } from "../support/cli-bin.ts";
import { scaled } from "../support/time-scale.ts";
import { expectWellFormed, rowNamed } from "./support.ts";

test(
  "the task-store benchmark lists (installed package and checkout), watches and cancels across processes",
  async () => {
    // The run's bundle stands for the installed package when the suite built one (a pack is ~15 s of CPU).
    const bin = cliBin();
    const rows = await measureTaskStore({
      records: 200,
      files: 2,
      runs: 1,
      cancelRuns: 1,
      ...(bin === SOURCE_BIN ? {} : { packageBin: bin }),
    });
    expectWellFormed(rows, "task store");
    expect(rowNamed(rows, "agentry tasks list, 200 records (installed package)").goal).toEqual({ max: 200 });
    expect(rowNamed(rows, "agentry tasks list (checkout: src/*.ts)").samples).toHaveLength(1);
    expect(rowNamed(rows, "status change seen by another process").goal).toEqual({ max: 200 });
    expect(rowNamed(rows, "cancel latency").goal).toEqual({ max: 1000 });
  },
  scaled(180_000),
);
