import { type GitContent, gitSubcommand } from "./git-subcommands.ts";
import { parseShell } from "./scanner.ts";
import { nestedRuns } from "./wrappers.ts";

/**
 * What one git command of a bash command line may print of the repository's files. The OS sandbox
 * hides a `.env` the read rules keep back from commands, but git reads its objects, not the file:
 * `git show HEAD:.env`, `git log -p`, `git grep` print a committed secret all the same. So the bash
 * tool treats these as reads of the files they may print (`src/tools/bash/bash-git-reads.ts`).
 */
export interface GitRead extends GitContent {
  /** The git command's words, joined, for messages. */
  command: string;
}

/** How many commands and scripts deep a git command is looked for (`sudo sh -c "timeout 5 git …"`). */
const MAX_DEPTH = 8;
const MOVES = new Set(["cd", "pushd", "popd"]);
/** Builtins that export a variable to the commands after them. */
const EXPORTS = new Set(["export", "declare", "typeset", "readonly", "local"]);
/** A variable git reads (`GIT_DIR`, `GIT_CONFIG_COUNT`, `GIT_EXTERNAL_DIFF` …), set or exported. */
const GIT_VARIABLE = /^GIT_[A-Za-z0-9_]*(=|$)/;
/** Those known to run no program and point git nowhere else (`GIT_PAGER`: git pages a terminal only). */
const INERT_VARIABLE =
  /^(GIT_PAGER|GIT_TERMINAL_PROMPT|GIT_OPTIONAL_LOCKS|GIT_(AUTHOR|COMMITTER)_(NAME|EMAIL|DATE))(=|$)/;

interface State {
  /** A `cd` (or `env -C`) may have moved a git command to another folder. */
  moved: { value: boolean };
  /** A variable of git's was exported to the commands after it. */
  exported: { value: boolean };
}

interface Found {
  words: string[];
  /** Its environment sets a variable of git's (`GIT_DIR=x git …`, `env GIT_CONFIG_COUNT=1 git …`). */
  configured: boolean;
  /** `words` runs commands nested deeper than this module reads (not git's words then). */
  tooDeep?: boolean;
}

/** Every git command in `command` (nested ones too) that may print repository files. */
export function gitContentReads(command: string): GitRead[] {
  const found: Found[] = [];
  const moved = { value: false };
  const exported = { value: false };
  collect(command, found, { moved, exported }, 0);
  return found.flatMap(({ words, configured, tooDeep }) => {
    const read = gitSubcommand(
      tooDeep === true ? ["(nested too deep)"] : words.slice(1),
      configured || exported.value,
    );
    if (read === undefined || (read.files.length === 0 && read.ambiguous.length === 0 && !read.unnamed))
      return [];
    return [{ command: words.join(" "), ...read, elsewhere: read.elsewhere || moved.value }];
  });
}

const setsGitVariable = (word: string) => GIT_VARIABLE.test(word) && !INERT_VARIABLE.test(word);

function collect(script: string, found: Found[], state: State, depth: number) {
  for (const simple of parseShell(script).commands) {
    const words = simple.words.map((word) => word.text);
    const assigned = simple.assignments.some((word) => setsGitVariable(word.text));
    // `GIT_DIR=x; export GIT_DIR` or `export GIT_DIR=x`: every git command after it may see it.
    if (words.length === 0 && assigned) state.exported.value = true;
    if (EXPORTS.has(words[0] ?? "") && words.slice(1).some(setsGitVariable)) state.exported.value = true;
    visit(words, { words, assigned }, found, state, depth);
  }
}

/** One command and those it runs in turn (`sudo timeout 5 git …`), to the same depth as scripts. */
function visit(
  run: string[],
  simple: { words: string[]; assigned: boolean },
  found: Found[],
  state: State,
  depth: number,
) {
  const base = run[0]?.split("/").at(-1);
  if (base !== undefined && MOVES.has(base)) state.moved.value = true;
  if (base === "env" && run.some((word) => /^(-[^-]*C|--chdir)/.test(word))) state.moved.value = true;
  if (run[0] === "git") {
    // The words before this git are its wrappers' (`env GIT_DIR=x git`, `sudo -E …`).
    const wrappers = simple.words.slice(0, simple.words.length - run.length);
    found.push({ words: run, configured: simple.assigned || wrappers.some(setsGitVariable) });
  }
  const nested = nestedRuns(run);
  if (depth >= MAX_DEPTH) {
    // What runs deeper may be git and is not read: taken for a git command that may print anything.
    if (nested.commands.length > 0 || nested.scripts.length > 0)
      found.push({ words: run, configured: true, tooDeep: true });
    return;
  }
  for (const inner of nested.commands) visit(inner, simple, found, state, depth + 1);
  for (const inner of nested.scripts) collect(inner, found, state, depth + 1);
}
