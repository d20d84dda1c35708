import { expect, it } from "vitest";
import { formatCount } from "../../src/text/format-count.ts";

it("groups whole numbers by thousands exactly as toLocaleString('en-US') does", () => {
  const samples = [0, 7, 42, 999, 1_000, 12_084, 999_999, 1_000_000, 1_234_567, -1, -1_234, -999_999];
  for (let n = 1; n < Number.MAX_SAFE_INTEGER / 7; n = n * 7 + 3) samples.push(n, -n);
  for (const n of samples) expect(formatCount(n), String(n)).toBe(n.toLocaleString("en-US"));
  expect(formatCount(1.5)).toBe((1.5).toLocaleString("en-US"));
});
