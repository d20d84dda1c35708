import { expect, test } from "vitest";
import { measureWideFanOut } from "../../bench/fan-out-wide.ts";
import { scaled } from "../support/time-scale.ts";
import { expectWellFormed, rowNamed } from "./support.ts";

test(
  "the wide fan-out benchmark compares sizes and runs children against a server at its capacity",
  async () => {
    const rows = await measureWideFanOut({
      sizes: [2, 4],
      calls: 1,
      // Long enough that the four children's calls overlap on a loaded machine too: the refusals below
      // need three of them in flight at once.
      latencyMs: scaled(20),
      runs: 1,
      warmup: 0,
      capacity: [{ children: 4, maxInFlight: 2 }],
    });
    expectWellFormed(rows, "wide fan-out");
    expect(rowNamed(rows, "N = 4 ÷ N = 2 (wall)").samples).toHaveLength(1);
    const capacity = rowNamed(rows, "N = 4, server takes 2 at once: wall ÷ ideal");
    expect(capacity.goal).toEqual({ max: 1.3 });
    // Wall time can never beat the model latency alone.
    expect(capacity.samples[0]).toBeGreaterThanOrEqual(1);
    // 4 children at once against 2: the first burst is refused.
    expect(rowNamed(rows, "N = 4, server takes 2 at once: 429s").samples[0]).toBeGreaterThan(0);
  },
  scaled(60_000),
);
