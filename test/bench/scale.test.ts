import { expect, test } from "vitest";
import { measureScale } from "../../bench/scale.ts";
import { scaled } from "../support/time-scale.ts";
import { expectWellFormed, rowNamed } from "./support.ts";

test(
  "the scale benchmark keeps background children alive together in a fresh process",
  async () => {
    const rows = await measureScale({ children: 5, holdMs: 10, runs: 1 });
    expectWellFormed(rows, "scale");
    expect(rowNamed(rows, "peak RSS").samples[0]).toBeGreaterThan(10);
  },
  scaled(30_000),
);
