import { expect, it } from "vitest";
import { measureWorkerKill } from "../../bench/worker-kill.ts";
import { describeWith, REDIS } from "../support/components.ts";
import { expectWellFormed, rowNamed } from "./support.ts";

describeWith(REDIS, "the worker-kill benchmark", () => {
  it("measures a killed worker's child's recovery, and lost locks under load", async () => {
    // One stress-ng worker per core: the path under load is run, without taking the CPUs from the tests beside it.
    const rows = await measureWorkerKill({ runs: 1, loadedChildren: 2, loadedChildMs: 500, loadPerCore: 1 });
    expectWellFormed(rows, "worker kill");
    expect(rowNamed(rows, "a killed worker's child").goal).toEqual({ max: 10 });
    expect(rowNamed(rows, "a killed worker's child").samples).toHaveLength(1);
  }, 120_000);
});
