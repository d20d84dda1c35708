import { argumentEffects } from "../shell/argument-effects.ts";
import { parseShell, type ShellRedirect } from "../shell/scanner.ts";
import { nestedRuns } from "../shell/wrappers.ts";
import { evaluateRequest } from "./evaluate.ts";
import { READ_ONLY_BASH_RULES } from "./read-only-bash-rules.ts";

export { READ_ONLY_BASH_RULES, REVIEW_BASH_RULES } from "./read-only-bash-rules.ts";

/** Writes to these are not writes to the workspace. */
const HARMLESS_TARGETS = new Set([
  "/dev/null",
  "/dev/stdout",
  "/dev/stderr",
  "/dev/tty",
  "/dev/fd/1",
  "/dev/fd/2",
]);
const MAX_DEPTH = 16;

/**
 * A name with a subscript that holds a command (`a[$(rm x)]`, quoted or not): wherever bash evaluates
 * such a string as a number or a name (`[[ -v '…' ]]`, `test 1 -eq '…'`, `$(( '…' ))`, `read '…'`,
 * a `for` variable used in `$((x))` later), it runs the command, though the quotes made it look like
 * text. Which words bash evaluates that way cannot be told from the text, so any such subscript is a note.
 */
const SUBSCRIPT_RUNNING_A_COMMAND = /\[[^\]]*(\$\(|`)/;
const SUBSCRIPT_NOTE = "!a subscript holding a command, which bash runs when it evaluates the name";

/**
 * The patterns a bash command is checked against, so a prefix rule like `ls *` allows only what it
 * says. One pattern per simple command (quotes removed, words joined by one space, leading
 * `NAME=value` assignments split off as patterns of their own), plus one for everything a prefix
 * cannot see:
 * - `> path` for each file written: redirections (`>`, `>>`, `&>`, `2>` … except to `/dev/null` or
 *   another fd), `tee`, `sed -i`, `sort -o`, `find -fprint` …;
 * - the commands that run inside `$(…)`, backticks, `<(…)`, subshells, `sh -c`, `eval`, `xargs`,
 *   `find -exec`, `sudo`, `env`, `timeout`, `builtin`, a `trap` handler, `time -p`, `coproc` …
 *   (recursively), and `rm …` for `/bin/rm …`;
 * - `!…` notes for what cannot be inspected or runs code (`sed e`, awk `system()`, `find -delete`,
 *   unbalanced quotes).
 *
 * `ls; rm -rf x` → `["ls", "rm -rf x"]`; `cat a > b` → `["cat a", "> b"]`;
 * `echo $(rm x)` → `["echo $(rm x)", "rm x"]`; `echo "a; rm x"` → `["echo a; rm x"]`.
 */
export function bashPermissionPatterns(command: string): string[] {
  const patterns = new Set<string>();
  collectScript(command, 0, patterns);
  return [...patterns];
}

/** True when every part of `command` is allowed by `READ_ONLY_BASH_RULES`. */
export function isReadOnlyBashCommand(command: string): boolean {
  const patterns = bashPermissionPatterns(command);
  return patterns.length > 0 && evaluateRequest(READ_ONLY_BASH_RULES, "bash", patterns).action === "allow";
}

function collectScript(source: string, depth: number, out: Set<string>): void {
  if (depth > MAX_DEPTH) {
    out.add("!command nests too deeply to inspect");
    return;
  }
  const parsed = parseShell(source);
  for (const problem of parsed.problems) out.add(`!shell syntax not understood: ${problem}`);
  if (SUBSCRIPT_RUNNING_A_COMMAND.test(source)) out.add(SUBSCRIPT_NOTE);
  for (const command of parsed.commands) {
    if (command.words.length > 0) {
      collectCommand(
        command.words.map((word) => word.text),
        depth,
        out,
      );
    }
    for (const assignment of command.assignments) out.add(assignment.text);
    for (const redirect of command.redirects) {
      const target = writtenFile(redirect);
      if (target !== undefined) out.add(`> ${target}`);
    }
  }
}

function collectCommand(words: string[], depth: number, out: Set<string>): void {
  if (depth > MAX_DEPTH) {
    out.add("!command nests too deeply to inspect");
    return;
  }
  out.add(words.join(" "));
  for (const effect of argumentEffects(words)) out.add(effect);
  const nested = nestedRuns(words);
  for (const marker of nested.markers) out.add(marker);
  for (const inner of nested.commands) collectCommand(inner, depth + 1, out);
  for (const script of nested.scripts) collectScript(script, depth + 1, out);
}

/** The file a redirection writes, or undefined when it only reads or duplicates a descriptor. */
function writtenFile(redirect: ShellRedirect): string | undefined {
  const { op, target } = redirect;
  if (op === "<" || op === "<<" || op === "<<-" || op === "<<<" || op === "<&") return undefined;
  if (op === ">&" && /^(\d+-?|-)$/.test(target.text)) return undefined;
  return HARMLESS_TARGETS.has(target.text) ? undefined : target.text;
}
