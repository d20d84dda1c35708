import { expect, test } from "vitest";
import { measureTracing } from "../../bench/tracing.ts";
import { expectWellFormed, rowNamed } from "./support.ts";

test("the tracing benchmark times a traced and an untraced fan-out and counts the SDK modules an untraced run loads", async () => {
  const rows = await measureTracing({ runs: 1 });
  expectWellFormed(rows, "tracing");
  expect(rowNamed(rows, "SDK modules an untraced agentry run loads").samples).toEqual([0]);
  expect(rowNamed(rows, "fan-out N = 16, traced (spans exported)").note).toMatch(/^\d+ spans a run/);
}, 240_000);
