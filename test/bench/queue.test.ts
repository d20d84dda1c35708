import { expect, it } from "vitest";
import { measureQueue } from "../../bench/queue.ts";
import { describeWith, REDIS } from "../support/components.ts";
import { scaled } from "../support/time-scale.ts";
import { expectWellFormed, rowNamed } from "./support.ts";

describeWith(REDIS, "the queue benchmark", () => {
  it(
    "measures the overhead per queued child, the throughput over worker processes and the cancel latency",
    async () => {
      const rows = await measureQueue({ runs: 2, children: 8, workers: 2, throughputRuns: 1, cancelRuns: 1 });
      expectWellFormed(rows, "queue");
      expect(rowNamed(rows, "overhead per child beyond the model").goal).toEqual({ max: 20 });
      expect(rowNamed(rows, "cancel latency").samples).toHaveLength(1);
      expect(rowNamed(rows, "throughput, 8 children over 2 workers").samples).toHaveLength(1);
    },
    scaled(120_000),
  );
});
