import type { FileMatches, GrepLines, GrepOutputMode } from "./grep-query.ts";

/** Prints what the engines found in ripgrep's format (see `GrepLines`); `files` are in path order. */
export function formatGrepResults(
  files: readonly FileMatches[],
  mode: GrepOutputMode,
  context: number,
): GrepLines {
  if (mode === "files_with_matches") return files.map((file) => file.path);
  if (mode === "count") return files.map((file) => `${file.path}:${file.matchCount}`);
  const out: GrepLines = [];
  for (const file of files) {
    let previous: number | undefined;
    for (const line of file.lines) {
      // ripgrep separates groups that are not adjacent, within a file and across files, with context.
      const startsGroup = previous === undefined || line.number > previous + 1;
      if (context > 0 && out.length > 0 && startsGroup) out.push("--");
      const mark = line.isMatch ? ":" : "-";
      out.push(`${file.path}${mark}${line.number}${mark}${line.text}`);
      previous = line.number;
    }
  }
  return out;
}
