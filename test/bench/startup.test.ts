import { expect, test } from "vitest";
import { measureStartup } from "../../bench/startup.ts";
import { cliBin, SOURCE_BIN } from "../support/cli-bin.ts";
import { scaled } from "../support/time-scale.ts";
import { expectWellFormed, rowNamed } from "./support.ts";

test(
  "the start-up benchmark spawns the package's CLI (packed, or the run's bundle) and the checkout's to a first model request, and probes imports",
  async () => {
    // The run's bundle stands for the installed package when the suite built one (a pack is ~15 s of CPU).
    const bin = cliBin();
    const rows = await measureStartup({
      runs: 1,
      variants: false,
      probeRuns: 1,
      ...(bin === SOURCE_BIN ? {} : { packageBin: bin }),
    });
    expectWellFormed(rows, "start-up");
    const installed = rowNamed(rows, "agentry run → first model request (installed package)");
    expect(installed.goal).toEqual({ max: 120 });
    expect(rowNamed(rows, "agentry --version (installed package)").goal).toEqual({ max: 60 });
    const checkout = rowNamed(rows, "agentry run → first model request (checkout: src/*.ts)");
    expect(checkout.goal).toBeUndefined();
    expect(rows.some((line) => line.figure.startsWith("start-up breakdown (checkout"))).toBe(true);
  },
  scaled(180_000),
);
