import type { GrepLines, GrepQuery } from "./grep-query.ts";
import { ALWAYS_IGNORED_DIRS } from "./ignore-rules.ts";
import type { Operations } from "./operations.ts";
import { ToolError } from "./tool.ts";

const GREP_TIMEOUT_MS = 120_000;
const availability = new WeakMap<Operations, Promise<boolean>>();

/** Whether `rg` is on the PATH of the machine behind `ops` (asked once per Operations). */
export function hasRipgrep(ops: Operations, cwd: string): Promise<boolean> {
  let known = availability.get(ops);
  if (known === undefined) {
    known = ops
      .exec("command -v rg", { cwd, signal: new AbortController().signal, timeoutMs: 10_000 })
      .then((result) => result.exitCode === 0 && result.output.trim() !== "")
      .catch(() => false);
    availability.set(ops, known);
  }
  return known;
}

/** Runs ripgrep through `ops.exec` so the same tool works wherever the Operations run commands. */
export async function grepWithRipgrep(
  ops: Operations,
  query: GrepQuery,
  signal: AbortSignal,
): Promise<GrepLines> {
  const args = [
    "rg",
    "--color=never",
    "--no-heading",
    "--with-filename",
    "--line-number",
    "--hidden",
    "--no-require-git",
    "--no-messages",
    "--sort=path",
    ...[...ALWAYS_IGNORED_DIRS].flatMap((dir) => ["--glob", `!${dir}/`]),
  ];
  if (query.ignoreCase) args.push("--ignore-case");
  if (query.glob !== undefined) args.push("--glob", query.glob);
  if (query.mode === "files_with_matches") args.push("--files-with-matches");
  if (query.mode === "count") args.push("--count");
  if (query.mode === "content" && query.context > 0) args.push("--context", String(query.context));
  // An explicit path keeps rg from reading stdin; `./` is stripped from its output below.
  args.push("--regexp", query.pattern, "--", query.targetRelative);

  const result = await ops.exec(args.map(shellQuote).join(" "), {
    cwd: query.root,
    signal,
    timeoutMs: GREP_TIMEOUT_MS,
  });
  if (result.aborted) throw new ToolError("grep was aborted.");
  if (result.timedOut) {
    throw new ToolError(`grep timed out after ${GREP_TIMEOUT_MS / 1000} s; narrow it with path or glob.`);
  }
  // Exit code 1 means no match; 2 an error (a bad regex, most often), possibly alongside matches.
  if (result.exitCode === 1) return [];
  if (result.exitCode !== 0) {
    throw new ToolError(`grep failed: ${result.output.trim() || `ripgrep exit code ${result.exitCode}`}`);
  }
  return result.output
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => (line.startsWith("./") ? line.slice(2) : line));
}

function shellQuote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}
