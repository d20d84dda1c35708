import { errorMessage } from "../../text/error-message.ts";
import type { Operations } from "../operations.ts";
import { splitLines, startsBinary } from "../text-detection.ts";
import { ToolError } from "../tool.ts";
import type { FileMatches, GrepFile, GrepLine, GrepQuery } from "./grep-query.ts";

/** The search without ripgrep: JavaScript regex syntax, one line at a time; binary files (a NUL in the first 8 KB) skipped. */
export async function grepWithJs(
  ops: Operations,
  query: GrepQuery,
  files: readonly GrepFile[],
  signal: AbortSignal,
): Promise<FileMatches[]> {
  let regex: RegExp;
  try {
    regex = new RegExp(query.pattern, query.ignoreCase ? "i" : "");
  } catch (error) {
    throw new ToolError(
      `Invalid regular expression ${JSON.stringify(query.pattern)}: ${errorMessage(error)}`,
    );
  }
  const found: FileMatches[] = [];
  for (const file of files) {
    signal.throwIfAborted();
    const data = await ops.readFile(file.absolute).catch(() => undefined);
    if (data === undefined || startsBinary(data)) continue;
    const lines = splitLines(data.toString("utf8"));
    const matching = lines.flatMap((line, index) => (regex.test(line) ? [index] : []));
    if (matching.length === 0) continue;
    found.push({
      path: file.path,
      matchCount: matching.length,
      lines: query.mode === "content" ? withContext(lines, matching, query.context) : [],
    });
  }
  return found;
}

/** The matching lines and `context` lines around each, in order, each line once. */
function withContext(lines: readonly string[], matching: readonly number[], context: number): GrepLine[] {
  const isMatch = new Set(matching);
  const out: GrepLine[] = [];
  let lastPrinted = -1;
  for (const index of matching) {
    const from = Math.max(0, index - context, lastPrinted + 1);
    const to = Math.min(lines.length - 1, index + context);
    for (let line = from; line <= to; line++) {
      out.push({ number: line + 1, text: lines[line] ?? "", isMatch: isMatch.has(line) });
    }
    lastPrinted = Math.max(lastPrinted, to);
  }
  return out;
}
