import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
/** Printable ASCII: one column per character, so string-width is not needed to measure it. */
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

let stringWidth: ((text: string) => number) | undefined;
let segmenter: Intl.Segmenter | undefined;

/**
 * Terminal columns, not characters: a CJK character or most emoji take two columns, a combining mark
 * none, and ANSI colour codes none. Everything the live tree lays out is measured with these, so a wide
 * name neither wraps a line nor throws off the count of rows to redraw.
 *
 * string-width is loaded the first time a string needs it: its module builds Unicode tables, regular
 * expressions and an `Intl.Segmenter` (~20 ms), which every `agentry run` paid at start-up before.
 */
export function textWidth(text: string): number {
  if (PRINTABLE_ASCII.test(text)) return text.length;
  stringWidth ??= (require("string-width") as { default: (text: string) => number }).default;
  return stringWidth(text);
}

function graphemesOf(text: string): Intl.Segments {
  segmenter ??= new Intl.Segmenter(undefined, { granularity: "grapheme" });
  return segmenter.segment(text);
}

/** `text` cut to at most `max` columns, ending in `…` when cut; never splits a character or an emoji. */
export function cutToWidth(text: string, max: number): string {
  if (max <= 0) return "";
  if (textWidth(text) <= max) return text;
  let out = "";
  let used = 0;
  for (const { segment } of graphemesOf(text)) {
    const width = textWidth(segment);
    if (used + width > max - 1) break;
    out += segment;
    used += width;
  }
  return `${out}…`;
}

/** `text` followed by spaces up to `width` columns (never cut). */
export function padEndToWidth(text: string, width: number): string {
  return text + " ".repeat(Math.max(0, width - textWidth(text)));
}

/** Spaces, then `text`, up to `width` columns (never cut). */
export function padStartToWidth(text: string, width: number): string {
  return " ".repeat(Math.max(0, width - textWidth(text))) + text;
}

/**
 * Rows `text` (one line, no ANSI) covers on a terminal `columns` wide: a two-column character that does
 * not fit at the end of a row goes to the next one, leaving a blank column behind.
 */
export function rowsCovered(text: string, columns: number): number {
  let rows = 1;
  let column = 0;
  for (const { segment } of graphemesOf(text)) {
    const width = textWidth(segment);
    if (width === 0) continue;
    if (column + width > columns) {
      rows += 1;
      column = 0;
    }
    column += width;
  }
  return rows;
}
