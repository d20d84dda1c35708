import { homedir } from "node:os";
import { dirname, resolve } from "node:path";
import { isInside } from "../text/path-inside.ts";
import { parseShell } from "./scanner.ts";
import { searchReads } from "./search-options.ts";
import { nestedRuns } from "./wrappers.ts";

/**
 * Commands whose operands are file or directory paths. Their path operands, and every redirection
 * target, are checked against the workspace; other commands' arguments (patterns, URLs, messages) are
 * not guessed at. For the search commands the first operand is the pattern, not a path.
 */
const PATH_COMMANDS = new Set([
  "cat",
  "head",
  "tail",
  "less",
  "more",
  "ls",
  "tree",
  "stat",
  "file",
  "wc",
  "du",
  "diff",
  "cd",
  "pushd",
  "cp",
  "mv",
  "rm",
  "rmdir",
  "mkdir",
  "touch",
  "chmod",
  "chown",
  "ln",
  "tee",
  "tar",
  "zip",
  "unzip",
  "find",
  "source",
  ".",
  "sort",
  "uniq",
  "cut",
  "xxd",
  "od",
  "strings",
  "realpath",
  "readlink",
]);
/** Searchers whose first operand is the pattern (grep and rg are read by `searchReads`). */
const SEARCH_COMMANDS = new Set(["ag", "ack"]);
const DEVICE_PATHS = new Set(["/dev/null", "/dev/stdin", "/dev/stdout", "/dev/stderr", "/dev/tty"]);

/**
 * The paths outside `workspace` that a shell command names as file operands or redirection targets,
 * resolved to absolute paths (`~` is the home directory). The bash tool asks `external_directory`
 * for each, so a rule or the user decides; a command that only works inside the workspace asks nothing.
 */
export function externalPaths(command: string, workspace: string, home: string = homedir()): string[] {
  const found = new Set<string>();
  const consider = (word: string) => {
    const path = resolvePath(word, workspace, home);
    if (!DEVICE_PATHS.has(path) && !isInside(path, workspace)) found.add(path);
  };
  collect(command, consider, 0);
  return [...found];
}

/**
 * Every file operand and redirection target of a command that lies inside `workspace`, as absolute
 * paths (relative words resolved against it; words with glob characters kept as patterns). The bash
 * tool checks them when no OS sandbox runs: a symlink that leads outside, or a file the read rules
 * keep back (`.env`), asks as the file tools would.
 */
export function workspaceOperands(command: string, workspace: string, home: string = homedir()): string[] {
  const found = new Set<string>();
  const consider = (word: string) => {
    if (word === "" || word.includes("$") || word.includes("`")) return;
    const path = resolvePath(word, workspace, home);
    if (!DEVICE_PATHS.has(path) && isInside(path, workspace)) found.add(path);
  };
  collect(command, consider, 0);
  return [...found];
}

/** Scripts run by `sh -c`, `eval` … are searched too, up to a small depth; deeper ones may reach anything. */
const MAX_SCRIPT_DEPTH = 4;

function collect(command: string, consider: (word: string) => void, depth: number): void {
  for (const simple of parseShell(command).commands) {
    for (const redirect of simple.redirects) {
      if (!redirect.op.includes("&") || !/^\d+$/.test(redirect.target.text)) consider(redirect.target.text);
    }
    const words = simple.words.map((word) => word.text);
    operandsOf(words, consider);
    const nested = nestedRuns(words);
    for (const inner of nested.commands) operandsOf(inner, consider);
    if (depth < MAX_SCRIPT_DEPTH) for (const script of nested.scripts) collect(script, consider, depth + 1);
    // A script nested deeper is not read: it may name any path, so `/` stands for them.
    else if (nested.scripts.length > 0) consider("/");
  }
}

/** The path operands of one command's words, when it is a command known to take paths. */
function operandsOf(words: readonly string[], consider: (word: string) => void): void {
  const [name, ...rest] = words;
  const base = name?.split("/").at(-1);
  if (base === undefined) return;
  const reads = searchReads(base, rest);
  if (reads !== undefined) {
    // grep and rg by their option tables: their paths and the files their options name, not patterns.
    for (const path of [...reads.files, ...reads.paths]) consider(path);
    return;
  }
  const search = SEARCH_COMMANDS.has(base);
  if (!search && !PATH_COMMANDS.has(base)) return;
  let patternSkipped = !search;
  let afterDashes = false;
  for (const word of rest) {
    if (!afterDashes && word === "--") {
      afterDashes = true;
      continue;
    }
    if (!afterDashes && word.startsWith("-")) {
      // `--file=/etc/x`: the value of a long option can be a path too.
      const value = word.includes("=") ? word.slice(word.indexOf("=") + 1) : undefined;
      if (value) consider(value);
      continue;
    }
    if (!patternSkipped) {
      patternSkipped = true;
      continue;
    }
    consider(word);
  }
}

/**
 * The absolute path a word names: `~`, `$HOME` and `${HOME}` are the home folder, `~name` that user's
 * (beside ours, or `/root`), `$PWD` the workspace, a relative word is under the workspace (so `./..`
 * is its parent). What a substitution prints is unknown: only the folder written before it counts
 * (`/etc/$(…)` is under `/etc`, `$(…)` alone under the workspace).
 */
function resolvePath(word: string, workspace: string, home: string): string {
  const substitution = word.search(/\$\(|`/);
  const known = substitution === -1 ? word : word.slice(0, word.lastIndexOf("/", substitution) + 1);
  const fromHome = /^(~|\$HOME|\$\{HOME\})(\/|$)/.exec(known);
  if (fromHome) return resolve(home, known.slice(fromHome[0].length));
  const otherHome = /^~([a-z_][\w.-]*)(\/|$)/i.exec(known);
  if (otherHome) {
    const user = otherHome[1] as string;
    return resolve(
      user === "root" ? "/root" : resolve(dirname(home), user),
      known.slice(otherHome[0].length),
    );
  }
  const here = /^(\$PWD|\$\{PWD\})(\/|$)/.exec(known);
  return resolve(workspace, here ? known.slice(here[0].length) : known);
}
