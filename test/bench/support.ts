import { expect } from "vitest";
import type { Row } from "../../bench/support/row.ts";

/** Every row has a name, a unit and only finite, non-negative samples. */
export function expectWellFormed(rows: Row[], figure: string): void {
  expect(rows.length).toBeGreaterThan(0);
  for (const line of rows) {
    expect(line.figure.startsWith(figure)).toBe(true);
    expect(line.metric).not.toBe("");
    expect(line.samples.length).toBeGreaterThan(0);
    for (const sample of line.samples) {
      expect(Number.isFinite(sample)).toBe(true);
      expect(sample).toBeGreaterThanOrEqual(0);
    }
  }
}

export function rowNamed(rows: Row[], metric: string): Row {
  const found = rows.find((line) => line.metric.startsWith(metric));
  if (!found) throw new Error(`no row "${metric}" in ${rows.map((line) => line.metric).join(", ")}`);
  return found;
}
