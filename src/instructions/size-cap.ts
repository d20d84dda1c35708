import { formatSize } from "../tools/format-size.ts";
import type { InstructionFile } from "./instruction-file.ts";

/** What the instruction files may put in a prompt, in all: Codex's `project_doc_max_bytes`. */
export const INSTRUCTIONS_MAX_BYTES = 32 * 1024;

/**
 * Keeps the files, in order, while their text fits in `maxBytes` (as Codex does: the broadest come
 * first, so what is cut is the most specific); the file that crosses the cap is cut at a line end, the
 * ones after it are left out, and one diagnostic says so.
 */
export function capFiles(
  files: readonly InstructionFile[],
  maxBytes: number,
): { files: InstructionFile[]; diagnostics: string[] } {
  const kept: InstructionFile[] = [];
  const left: string[] = [];
  let cut: { label: string; bytes: number } | undefined;
  let room = maxBytes;
  for (const file of files) {
    if (room <= 0) {
      left.push(file.label);
      continue;
    }
    // By its size on disk: a file longer than the cap was read only up to it.
    if (file.size <= room) {
      kept.push(file);
      room -= Buffer.byteLength(file.text);
      continue;
    }
    const text = headWithin(file.text, room);
    if (text.trim() === "") left.push(file.label);
    else {
      kept.push({ ...file, text, truncated: true });
      cut = { label: file.label, bytes: Buffer.byteLength(text) };
    }
    room = 0;
  }
  if (cut === undefined && left.length === 0) return { files: kept, diagnostics: [] };
  const total = files.reduce((sum, file) => sum + file.size, 0);
  const parts = [
    ...(cut === undefined ? [] : [`${cut.label} was cut after ${formatSize(cut.bytes)}`]),
    ...(left.length === 0 ? [] : [`left out: ${left.join(", ")}`]),
  ];
  return {
    files: kept,
    diagnostics: [
      `the instruction files hold ${formatSize(total)}, over the ${formatSize(maxBytes)} cap: ${parts.join("; ")}`,
    ],
  };
}

/** The longest head of `text` within `maxBytes`, ending at a line end when there is one. */
function headWithin(text: string, maxBytes: number): string {
  const all = Buffer.from(text);
  const head = all.subarray(0, maxBytes);
  const newline = head.lastIndexOf(0x0a);
  if (newline > 0) return head.subarray(0, newline + 1).toString("utf8");
  // No line end: cut between characters (a UTF-8 continuation byte never starts one).
  let end = head.length;
  while (end > 0 && ((all[end] ?? 0) & 0xc0) === 0x80) end--;
  return all.subarray(0, end).toString("utf8");
}
