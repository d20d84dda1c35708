import { expect, test } from "vitest";
import { summarize } from "../../bench/support/stats.ts";
import { formatTable } from "../../bench/support/table.ts";

test("summaries use measured values: median of an even count averages, percentiles are nearest-rank", () => {
  expect(summarize([4, 1, 3, 2])).toEqual({ median: 2.5, min: 1, max: 4, p10: 1, p90: 4, count: 4 });
  expect(summarize([5])).toMatchObject({ median: 5, min: 5, max: 5 });
  expect(() => summarize([])).toThrow("no samples");
});

test("the table says whether each median meets its goal", () => {
  const table = formatTable([
    { figure: "f", metric: "met", unit: "ms", samples: [1, 2, 3], goal: { max: 2 } },
    { figure: "f", metric: "missed", unit: "ms", samples: [3, 4, 5], goal: { max: 2 } },
    { figure: "f", metric: "info", unit: "%", samples: [7], note: "why" },
  ]);
  expect(table).toMatch(/\| met +\| 2\.00 ms +\| 1\.00–3\.00 ms +\| 3 +\| ≤ 2\.00 ms \| yes \|/);
  expect(table).toMatch(/\| missed .*\| NO +\|/);
  expect(table).toContain("- f, info: why");
});
