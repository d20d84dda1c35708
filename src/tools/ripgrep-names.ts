import { hasByteEscapes } from "./byte-names.ts";
import type { GrepLines, GrepOutputMode } from "./grep-query.ts";

/**
 * Whether ripgrep's output names a file in a form `read` would not accept. ripgrep prints a name that is
 * not valid UTF-8 as raw bytes, which reach us through the shell as U+FFFD, and a name that merely looks
 * like a `\xHH` escape as is (see `byte-names.ts`); the JavaScript engine reads names through the
 * `Operations` and gets both right, so grep runs it instead when this is true.
 */
export function ripgrepNamesUnreadable(lines: GrepLines, mode: GrepOutputMode): boolean {
  return lines.some((line) => {
    const path = pathOf(line, mode);
    return path !== undefined && (path.includes("\uFFFD") || hasByteEscapes(path));
  });
}

/**
 * The file name at the start of an output line. In `content` mode the shortest prefix before
 * `:N:`/`-N-` is taken: it is never longer than the name, so text after it cannot be mistaken for one.
 */
function pathOf(line: string, mode: GrepOutputMode): string | undefined {
  if (mode === "files_with_matches") return line;
  if (mode === "count") return line.slice(0, line.lastIndexOf(":"));
  if (line === "--") return undefined;
  return /^(.*?)(?::\d+:|-\d+-)/s.exec(line)?.[1] ?? line;
}
