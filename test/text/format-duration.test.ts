import { expect, it } from "vitest";
import { formatDuration } from "../../src/text/format-duration.ts";

it("writes milliseconds, tenths of seconds, minutes and seconds, hours and minutes", () => {
  const cases: Array<[number, string]> = [
    [0, "0ms"],
    [-5, "0ms"],
    [Number.NaN, "0ms"],
    [40, "40ms"],
    [999.4, "999ms"],
    [999.6, "1.0s"],
    [1000, "1.0s"],
    [4_230, "4.2s"],
    [59_940, "59.9s"],
    [59_960, "1m"],
    [125_000, "2m5s"],
    [600_000, "10m"],
    [3_599_600, "1h"],
    [5_400_000, "1h30m"],
  ];
  for (const [ms, text] of cases) expect(formatDuration(ms), String(ms)).toBe(text);
});
