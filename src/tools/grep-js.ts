import { basename } from "node:path";
import { globToRegExp } from "./glob-pattern.ts";
import type { GrepLines, GrepQuery } from "./grep-query.ts";
import type { Operations } from "./operations.ts";
import { looksBinary, splitLines } from "./text-detection.ts";
import { ToolError } from "./tool.ts";
import { comparePaths, walkFiles } from "./walk-files.ts";

/** The search without ripgrep: same ignores, same output format, JavaScript regex syntax. */
export async function grepWithJs(ops: Operations, query: GrepQuery, signal: AbortSignal): Promise<GrepLines> {
  let regex: RegExp;
  try {
    regex = new RegExp(query.pattern, query.ignoreCase ? "i" : "");
  } catch (error) {
    throw new ToolError(
      `Invalid regular expression ${JSON.stringify(query.pattern)}: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  const files = query.targetIsFile
    ? [{ absolute: query.target, path: query.targetRelative }]
    : await listFiles(ops, query, signal);

  const out: GrepLines = [];
  for (const file of files) {
    signal.throwIfAborted();
    const data = await ops.readFile(file.absolute).catch(() => undefined);
    if (data === undefined || looksBinary(data)) continue;
    const lines = splitLines(data.toString("utf8"));
    const matching = lines.flatMap((line, index) => (regex.test(line) ? [index] : []));
    if (matching.length === 0) continue;
    if (query.mode === "files_with_matches") out.push(file.path);
    else if (query.mode === "count") out.push(`${file.path}:${matching.length}`);
    else appendContent(out, file.path, lines, matching, query.context);
  }
  return out;
}

async function listFiles(
  ops: Operations,
  query: GrepQuery,
  signal: AbortSignal,
): Promise<Array<{ absolute: string; path: string }>> {
  // Like ripgrep's --glob: a pattern without `/` matches the file name at any depth.
  const glob = query.glob === undefined ? undefined : globToRegExp(query.glob);
  const byName = query.glob !== undefined && !query.glob.includes("/");
  const files: Array<{ absolute: string; path: string }> = [];
  for await (const entry of walkFiles({ ops, workspace: query.root, start: query.target, signal })) {
    if (!entry.isFile) continue;
    if (glob !== undefined && !glob.test(byName ? basename(entry.path) : entry.pathFromStart)) continue;
    files.push({ absolute: entry.absolute, path: entry.path });
  }
  return files.sort((a, b) => comparePaths(a.path, b.path));
}

function appendContent(
  out: GrepLines,
  path: string,
  lines: readonly string[],
  matching: readonly number[],
  context: number,
): void {
  const isMatch = new Set(matching);
  let lastPrinted = -1;
  for (const index of matching) {
    const from = Math.max(0, index - context, lastPrinted + 1);
    const to = Math.min(lines.length - 1, index + context);
    if (from > to) continue;
    // ripgrep separates groups that are not adjacent (including across files) when showing context.
    if (context > 0 && out.length > 0 && (lastPrinted === -1 || from > lastPrinted + 1)) out.push("--");
    for (let line = from; line <= to; line++) {
      out.push(
        `${path}${isMatch.has(line) ? ":" : "-"}${line + 1}${isMatch.has(line) ? ":" : "-"}${lines[line]}`,
      );
    }
    lastPrinted = to;
  }
}
