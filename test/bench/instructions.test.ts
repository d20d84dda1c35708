import { expect, test } from "vitest";
import { measureInstructions } from "../../bench/instructions.ts";
import { cliBin } from "../support/cli-bin.ts";
import { expectWellFormed, rowNamed } from "./support.ts";

const CHECKOUT_BIN = cliBin();

test("an AGENTS.md costs each fixed part about its own size and no cache read; without one the economy goals hold", async () => {
  const rows = await measureInstructions({ runs: 1, bin: CHECKOUT_BIN });
  expectWellFormed(rows, "instructions");
  const sample = (metric: string) => rowNamed(rows, metric).samples[0]!;
  const own = sample("the AGENTS.md's own tokens");
  // The economy figure's goals (bench/economy.ts), with no instruction file.
  expect(sample("fixed tokens per call, parent, no instruction file")).toBeLessThanOrEqual(2_500);
  expect(sample("fixed tokens per call, child, no instruction file")).toBeLessThanOrEqual(1_200);
  for (const agent of ["parent", "child"]) {
    const added =
      sample(`fixed tokens per call, ${agent}, with AGENTS.md`) -
      sample(`fixed tokens per call, ${agent}, no instruction file`);
    // Its text, plus the section's short header and the file's element: 50 tokens at most.
    expect(added).toBeGreaterThanOrEqual(own);
    expect(added).toBeLessThanOrEqual(own + 50);
  }
  expect(sample("prompt-cache hit rate, with AGENTS.md")).toBeGreaterThanOrEqual(
    sample("prompt-cache hit rate, no instruction file"),
  );
}, 240_000);
