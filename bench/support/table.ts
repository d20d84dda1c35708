import type { Row } from "./row.ts";
import { summarize } from "./stats.ts";

/** 0.123 → "0.12", 12.34 → "12.3", 1234.5 → "1235": three significant figures is what the noise allows. */
export function formatNumber(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  const size = Math.abs(value);
  if (size >= 100) return value.toFixed(0);
  if (size >= 10) return value.toFixed(1);
  if (size >= 1) return value.toFixed(2);
  return value.toFixed(3);
}

const withUnit = (value: string, unit: string) => (unit === "" ? value : `${value} ${unit}`);

/** The cells of one row: median, spread (min–max), run count, goal and whether the median meets it. */
export function rowCells(row: Row): string[] {
  const stats = summarize(row.samples);
  const spread =
    stats.count === 1 ? "–" : withUnit(`${formatNumber(stats.min)}–${formatNumber(stats.max)}`, row.unit);
  const goal = row.goal ? withUnit(`≤ ${formatNumber(row.goal.max)}`, row.unit) : "";
  const met = row.goal ? (stats.median <= row.goal.max ? "yes" : "NO") : "";
  return [
    row.figure,
    row.metric,
    withUnit(formatNumber(stats.median), row.unit),
    spread,
    String(stats.count),
    goal,
    met,
  ];
}

const HEADER = ["figure", "metric", "median", "spread (min–max)", "runs", "goal", "met"];

/** A Markdown table (readable as plain text too), then the rows' notes. */
export function formatTable(rows: readonly Row[]): string {
  const cells = [HEADER, ...rows.map(rowCells)];
  const widths = HEADER.map((_, column) =>
    Math.max(...cells.map((line) => [...(line[column] ?? "")].length)),
  );
  const line = (values: string[]) =>
    `| ${values.map((value, column) => value + " ".repeat(widths[column]! - [...value].length)).join(" | ")} |`;
  const rule = `|${widths.map((width) => "-".repeat(width + 2)).join("|")}|`;
  const notes = rows.filter((r) => r.note).map((r) => `- ${r.figure}, ${r.metric}: ${r.note}`);
  const table = [line(HEADER), rule, ...cells.slice(1).map(line)].join("\n");
  return notes.length > 0 ? `${table}\n\nNotes:\n${notes.join("\n")}` : table;
}
