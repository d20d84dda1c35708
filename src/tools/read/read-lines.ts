import { looksBinary } from "../text-detection.ts";

/** One line of a window: its start, cut to `maxLineBytes`, and its whole length. */
export interface WindowLine {
  /** The line's text (no newline, no `\r`), from at most `maxLineBytes` of it. */
  text: string;
  /** The whole line's length in bytes. */
  bytes: number;
  /** Whether `text` is only the line's start. */
  cut: boolean;
}

export type LineWindow =
  | {
      kind: "lines";
      /** Lines `offset`… of the file, at most `limit` of them. */
      lines: WindowLine[];
      /** Whether the file goes on after the last returned line. */
      more: boolean;
      /** Lines the file has in all; known only when the scan reached the end (else 0). */
      totalLines: number;
      /** Set when binary data (a NUL byte) cut the window short: the byte where it starts. */
      binaryFrom?: number;
    }
  /** The first bytes look binary, or a NUL byte came before the window's first line. */
  | { kind: "binary"; afterLine: number; byte: number };

export interface WindowRequest {
  /** 1-based first line. */
  offset: number;
  limit: number;
  /** How much of each line is kept: longer lines are cut, so one huge line never fills memory. */
  maxLineBytes: number;
}

const NEWLINE = 0x0a;

/**
 * Reads lines `offset`..`offset + limit - 1` from a file's chunks and stops there: only the window is
 * kept, and leaving the loop closes the file, so a file of gigabytes costs what its first lines cost.
 */
export async function readLineWindow(
  chunks: AsyncIterable<Uint8Array>,
  request: WindowRequest,
): Promise<LineWindow> {
  const last = request.offset + request.limit - 1;
  const lines: WindowLine[] = [];
  let line = 1;
  let position = 0;
  let kept: Uint8Array[] = [];
  let keptBytes = 0;
  let lineBytes = 0;
  const done = (more: boolean): LineWindow => ({
    kind: "lines",
    lines,
    more,
    totalLines: more ? 0 : line - 1,
  });

  const keep = (piece: Uint8Array) => {
    lineBytes += piece.length;
    if (line < request.offset || keptBytes >= request.maxLineBytes) return;
    const part = piece.subarray(0, request.maxLineBytes - keptBytes);
    kept.push(part);
    keptBytes += part.length;
  };
  const endLine = () => {
    if (line >= request.offset) lines.push(windowLine(kept, lineBytes, request.maxLineBytes, line === 1));
    kept = [];
    keptBytes = 0;
    lineBytes = 0;
    line++;
  };

  for await (const chunk of chunks) {
    if (position === 0 && looksBinary(chunk)) return { kind: "binary", afterLine: 0, byte: 0 };
    // A NUL ends the text: what follows is binary, and scanning it for newlines could take gigabytes.
    const nul = chunk.indexOf(0);
    let from = 0;
    const end = nul < 0 ? chunk.length : nul;
    while (from < end) {
      if (line > last) return done(true);
      const newline = chunk.indexOf(NEWLINE, from);
      if (newline < 0 || newline >= end) {
        keep(chunk.subarray(from, end));
        from = end;
      } else {
        keep(chunk.subarray(from, newline));
        endLine();
        from = newline + 1;
      }
    }
    if (nul >= 0) {
      if (line > last) return done(true);
      if (lineBytes > 0) endLine();
      if (lines.length === 0) return { kind: "binary", afterLine: line - 1, byte: position + nul };
      // The file's line count stays unknown: the scan stops at the binary data.
      return { kind: "lines", lines, more: false, totalLines: 0, binaryFrom: position + nul };
    }
    position += chunk.length;
  }
  if (lineBytes > 0) endLine();
  return done(false);
}

function windowLine(parts: Uint8Array[], bytes: number, maxLineBytes: number, first: boolean): WindowLine {
  let text = Buffer.concat(parts).toString("utf8");
  // A byte-order mark is not text (it may also straddle the first chunks, so it is dropped only here).
  if (first && text.startsWith("\uFEFF")) text = text.slice(1);
  if (text.endsWith("\r")) text = text.slice(0, -1);
  return { text, bytes, cut: bytes > maxLineBytes };
}
