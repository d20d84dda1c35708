import { resolve } from "node:path";
import { namesLongOption } from "./command-options.ts";
import { parseShell } from "./scanner.ts";
import { searchReads } from "./search-options.ts";
import { nestedRuns } from "./wrappers.ts";

/** Commands that walk folders by themselves, whatever their flags (rg is read by `searchReads`). */
const ALWAYS_RECURSIVE = new Set(["ag", "ack", "tar", "zip", "7z", "rsync"]);
/**
 * Commands that walk folders with a flag: its short letters and long names (`ls -R` lists names only:
 * not here). grep and rg are read by `searchReads`.
 */
const RECURSIVE_WITH_FLAG: Readonly<Record<string, { letters: string; names: readonly string[] }>> = {
  cp: { letters: "rRa", names: ["recursive", "archive"] },
  diff: { letters: "r", names: ["recursive"] },
  scp: { letters: "r", names: [] },
};
/** Commands whose file names come from elsewhere (stdin, a walk): they may read any file. */
const READS_NAMES_FROM_ELSEWHERE = new Set(["xargs", "find", "parallel"]);

const MAX_SCRIPT_DEPTH = 4;

/**
 * The folders a command reads recursively, as absolute paths: the folder operands of `grep -r`, `rg`
 * and the like (the working directory when they name none), and the whole workspace for a command
 * that reads files it learns elsewhere (`… | xargs cat`, `find … -exec cat {} +`). Without the OS
 * sandbox the bash tool asks `read` for every file under them, so a `.env` the rules keep back is not
 * read by a search that happens to pass it.
 */
export function recursiveReadRoots(command: string, workspace: string): string[] {
  const roots = new Set<string>();
  collect(command, workspace, roots, 0);
  return [...roots];
}

function collect(command: string, workspace: string, roots: Set<string>, depth: number): void {
  for (const simple of parseShell(command).commands) {
    const words = simple.words.map((word) => word.text);
    const nested = nestedRuns(words);
    for (const run of [words, ...nested.commands]) consider(run, workspace, roots);
    if (depth < MAX_SCRIPT_DEPTH)
      for (const script of nested.scripts) collect(script, workspace, roots, depth + 1);
    // A script nested deeper is not read: it may read anything (outside, `externalPaths` asks for `/`).
    else if (nested.scripts.length > 0) roots.add(workspace);
  }
}

function consider(words: readonly string[], workspace: string, roots: Set<string>): void {
  const [name, ...args] = words;
  const base = name?.split("/").at(-1);
  if (base === undefined) return;
  if (READS_NAMES_FROM_ELSEWHERE.has(base) && runsAReader(base, args)) {
    roots.add(workspace);
    return;
  }
  const search = searchReads(base, args);
  const flag = Object.hasOwn(RECURSIVE_WITH_FLAG, base) ? RECURSIVE_WITH_FLAG[base] : undefined;
  const recursive =
    search?.recursive ??
    (ALWAYS_RECURSIVE.has(base) || (flag !== undefined && args.some((arg) => isRecursiveFlag(arg, flag))));
  if (!recursive) return;
  const operands = args.filter((arg) => !arg.startsWith("-"));
  // For the other searchers the first operand is the pattern; the rest are paths.
  const paths = search?.paths ?? (["ag", "ack"].includes(base) ? operands.slice(1) : operands);
  if (paths.length === 0) roots.add(workspace);
  for (const path of paths) roots.add(resolve(workspace, path));
}

/** `-r` in a cluster of letters, or a long name or any start of it (`--recur`, `--arch`), as getopt_long takes it. */
function isRecursiveFlag(arg: string, flag: { letters: string; names: readonly string[] }): boolean {
  if (arg.startsWith("--")) return flag.names.some((full) => namesLongOption(arg, `--${full}`));
  return arg.startsWith("-") && [...arg.slice(1)].some((c) => flag.letters.includes(c));
}

/** `xargs`, `find -exec` and `parallel` read files only when they run a command (find alone lists names). */
function runsAReader(base: string, args: readonly string[]): boolean {
  if (base === "find") return args.some((arg) => /^-(exec|execdir|ok|okdir)$/.test(arg));
  return true;
}
