import { expect, test } from "vitest";
import { measureEconomy } from "../../bench/economy.ts";
import { cliBin } from "../support/cli-bin.ts";
import { scaled } from "../support/time-scale.ts";
import { expectWellFormed, rowNamed } from "./support.ts";

const CHECKOUT_BIN = cliBin();

test(
  "the economy benchmark runs the delegation workload through agentry run and reads tokens, cache, RSS and time",
  async () => {
    const rows = await measureEconomy({ runs: 1, bin: CHECKOUT_BIN });
    expectWellFormed(rows, "economy");
    const parent = rowNamed(rows, "fixed tokens per call, parent").samples[0]!;
    const child = rowNamed(rows, "fixed tokens per call, child").samples[0]!;
    expect(child).toBeLessThan(parent); // the child has no task tools
    const total = rowNamed(rows, "total input tokens").samples[0]!;
    // 2 parent calls and 6 child calls carry their fixed part, and the children read ~54k characters.
    expect(total).toBeGreaterThan(2 * parent + 6 * child + 54_000 / 4);
    const hits = rowNamed(rows, "prompt-cache hit rate").samples[0]!;
    expect(hits).toBeGreaterThan(0);
    expect(hits).toBeLessThan(100);
    expect(rowNamed(rows, "peak RSS").samples[0]).toBeGreaterThan(20);
  },
  scaled(120_000),
);
