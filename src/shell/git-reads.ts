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

const MAX_SCRIPT_DEPTH = 4;
const MOVES = new Set(["cd", "pushd", "popd"]);

/** Every git command in `command` (nested ones too) that may print repository files. */
export function gitContentReads(command: string): GitRead[] {
  const found: { words: string[] }[] = [];
  const moved = { value: false };
  collect(command, found, moved, 0);
  return found.flatMap(({ words }) => {
    const read = gitSubcommand(words.slice(1));
    if (read === undefined || (read.files.length === 0 && read.ambiguous.length === 0 && !read.unnamed))
      return [];
    return [{ command: words.join(" "), ...read, elsewhere: read.elsewhere || moved.value }];
  });
}

function collect(script: string, found: { words: string[] }[], moved: { value: boolean }, depth: number) {
  for (const simple of parseShell(script).commands) {
    const words = simple.words.map((word) => word.text);
    const nested = nestedRuns(words);
    for (const run of [words, ...nested.commands]) {
      const base = run[0]?.split("/").at(-1);
      if (base !== undefined && MOVES.has(base)) moved.value = true;
      if (base === "git" && run[0] === "git") found.push({ words: run });
    }
    if (depth < MAX_SCRIPT_DEPTH) for (const inner of nested.scripts) collect(inner, found, moved, depth + 1);
  }
}
