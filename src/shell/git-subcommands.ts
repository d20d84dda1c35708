import { namesLongOption } from "./command-options.ts";

/**
 * What a git subcommand may print of the repository's files, from its arguments: the file names it
 * prints (`<rev>:<path>`, `blame <path>` …) and whether it may print others too (a patch, a search).
 * Where an option's meaning is not known the answer leans to "may print more": the caller then checks
 * more files, which costs a question, never a secret.
 */
export interface GitContent {
  /**
   * Files it prints by name: `<rev>:<path>` objects, `blame <path>`, `-L…:<path>`, `--no-index a b`,
   * `grep -f <file>`, pathspecs. `fromRoot`: relative to the repository's top folder (an object's
   * path), else to the folder the command runs in.
   */
  files: { path: string; fromRoot: boolean }[];
  /** Pathspecs after `--`: what the command limits itself to. */
  pathspecs: string[];
  /** Operands before `--` that git takes for a path when one exists by that name, else for a revision. */
  ambiguous: string[];
  /**
   * Whether it may print files it does not name: patches of the history (`log -p`, `show <rev>`), the
   * index or working tree (`diff`, `grep`, `add -p`), objects by id (`cat-file -p <id>`), archives, or
   * anything (an alias, a subcommand git may not have).
   */
  unnamed: boolean;
  /** The unnamed files lie under these literal paths (the pathspecs); undefined: anywhere. */
  within: string[] | undefined;
  /**
   * Where the unnamed files come from besides the index: commits (`history`: a revision, a stash, an
   * object id), and files git does not track (`untracked`: `grep --untracked`, `--no-index`).
   */
  history: boolean;
  untracked: boolean;
  /** Its paths may be relative to another folder than the workspace (`-C`, `--work-tree`, a `cd`). */
  elsewhere: boolean;
}

/** Global options before the subcommand that take a value (`-C dir`, `-c key=value` …). */
const GLOBAL_VALUE: ReadonlySet<string> = new Set([
  "-C",
  "-c",
  "--git-dir",
  "--work-tree",
  "--namespace",
  "--config-env",
  "--super-prefix",
]);
/** Global options whose value makes the command's paths relative to another folder. */
const GLOBAL_ELSEWHERE = new Set(["-C", "--git-dir", "--work-tree"]);
/**
 * Settings (`-c key=value`, `--config-env key=VAR`) known to run no program and include no file. Any
 * other may make git run a command that prints any file: an alias, `core.fsmonitor` (run by `status`),
 * a diff driver, a credential helper, `include.path` (a file of more settings).
 */
export const INERT_CONFIG =
  /^((user|author|committer|color|advice)\.|(core\.quotepath|init\.defaultbranch)$)/i;

/** Options of the log/show/diff family whose value is the next word when not attached. */
const REVISION_VALUE = new Set(
  (
    "-n --max-count --skip --since --after --until --before --author --committer --grep --grep-reflog " +
    "--min-parents --max-parents -S -G -O -L --output --word-diff-regex --anchored --diff-filter " +
    "--find-object --color-moved-ws --ws-error-highlight --submodule --src-prefix --dst-prefix " +
    "--line-prefix --inter-hunk-context --stat-width --stat-name-width --stat-count --date " +
    "--decorate-refs --decorate-refs-exclude"
  ).split(" "),
);
/** Short options whose value may be attached (`-n5`, `-Sfoo`, `-L1,2:f`). */
const SHORT_ATTACHED = new Set(["n", "S", "G", "O", "L", "U", "M", "C", "B", "l", "e", "f", "A", "m"]);

/** Flags that make log/show/diff print patches (`-p` and what implies it). */
const PATCH =
  /^(-p|-u|--patch|--patch-with-stat|--patch-with-raw|-U\d*|--unified(=.*)?|--word-diff.*|--color-words.*|--cc|-c|-m|--remerge-diff|--diff-merges(=.*)?|--full-diff|--check|-[SG].*|--pickaxe-.*|--find-object(=.*)?|-L.*|--binary)$/;
/** Flags that make show/diff print no patch (unless a patch flag is given too). */
const NO_PATCH =
  /^(-s|--no-patch|--stat(=.*)?|--numstat|--shortstat|--dirstat(=.*)?|--summary|--name-only|--name-status|--raw|--compact-summary|--quiet)$/;

/**
 * A revision that names a commit whatever the repository holds (`HEAD`, `main~2`, `v1^`, `a..b`). Any
 * other name (a tag, an object id) may name a blob, which `show` prints whatever its flags.
 */
const COMMIT = /^(HEAD|@)$|[~^]\d*$|\.\./;

/** Subcommands that print no file content unless given `-p`/`--patch` (`add -p` shows hunks). */
const QUIET_UNLESS_PATCH = new Set(["add", "checkout", "commit", "reset", "restore", "stash", "status"]);
/** Subcommands known to print no file content whatever their arguments. */
const QUIET = new Set(
  (
    "am apply bisect branch check-attr check-ignore cherry cherry-pick clean clone commit-tree config " +
    "count-objects describe fetch for-each-ref fsck gc hash-object help init ls-files ls-remote " +
    "ls-tree maintenance merge merge-base mv mktag mktree name-rev notes prune pull push read-tree " +
    "rebase remote repack rev-list rev-parse revert rm shortlog show-branch show-ref sparse-checkout " +
    "submodule switch symbolic-ref tag update-index update-ref var verify-commit verify-tag version " +
    "worktree write-tree"
  ).split(" "),
);
/** Subcommands that print whole trees or patches of the history (and write them, for some). */
const WHOLE_TREES = new Set([
  "archive",
  "bundle",
  "fast-export",
  "format-patch",
  "range-diff",
  "pack-objects",
]);

/** One of git's global options: `-c key=value` has the name `-c`, the value `key=value`, the key `key`. */
export interface GitGlobalOption {
  name: string;
  /** Its value, the next word or after `=`; undefined when it has none. */
  value: string | undefined;
  /** For a setting, the key it sets (before the value's `=`). */
  key: string;
}

/** git's global options before the subcommand (`-C dir`, `-c key=value`, `--exec-path=dir` …), and where it starts. */
export function gitGlobalOptions(args: readonly string[]): { options: GitGlobalOption[]; index: number } {
  const options: GitGlobalOption[] = [];
  let index = 0;
  while (index < args.length && (args[index] as string).startsWith("-")) {
    const arg = args[index] as string;
    const name = arg.split("=")[0] as string;
    const separate = GLOBAL_VALUE.has(arg);
    const value = separate ? args[index + 1] : arg === name ? undefined : arg.slice(name.length + 1);
    options.push({ name, value, key: (value ?? "").split("=")[0] as string });
    index += separate ? 2 : 1;
  }
  return { options, index };
}

/** `-c key=value` or `--config-env key=VAR`: a setting of git's for this command. */
export const isSetting = (option: GitGlobalOption): boolean =>
  option.name === "-c" || option.name === "--config-env";

/**
 * What `git <args>` may print, or undefined when it prints no file content. `configured`: the command's
 * environment sets git's settings or programs (`GIT_CONFIG_*`, `GIT_EXTERNAL_DIFF`, `GIT_DIR` …).
 */
export function gitSubcommand(args: readonly string[], configured: boolean): GitContent | undefined {
  const { options, index } = gitGlobalOptions(args);
  const elsewhere = configured || options.some((option) => GLOBAL_ELSEWHERE.has(option.name));
  const runsProgram =
    configured ||
    options.some(
      (option) =>
        (isSetting(option) && !INERT_CONFIG.test(option.key)) ||
        // Subcommands that are programs of their own (`git-submodule`, an unknown name) are looked up there.
        (option.name === "--exec-path" && option.value !== undefined),
    );
  const sub = args[index];
  if (sub === undefined) return undefined;
  const rest = args.slice(index + 1);
  const content = (found: Partial<GitContent>): GitContent => ({
    files: [],
    pathspecs: [],
    ambiguous: [],
    unnamed: false,
    within: undefined,
    history: true,
    untracked: false,
    ...found,
    elsewhere,
  });
  // A program a setting names can print any file, tracked or not. A name git does not know (an alias
  // from the user's config, an external `git-<name>` program) can stand for anything too (below).
  if (runsProgram) return content({ unnamed: true, untracked: true });
  if (QUIET.has(sub)) return undefined;
  const { before, pathspecs } = splitAtDashDash(rest);
  const { flags, operands } = splitRevisionArgs(before);
  const within = literalPaths(pathspecs);
  // `-L` shows the history of one file's lines only: that file is named, no other is printed.
  const patch = flags.some((flag) => PATCH.test(flag) && !flag.startsWith("-L"));
  const noPatch = flags.some((flag) => NO_PATCH.test(flag));
  const lineFiles = flags.flatMap((flag) => lineRangeFile(flag));
  const objects = operands.flatMap(objectPath);
  const revisions = operands.filter((operand) => objectPath(operand).length === 0);
  const named = [...objects, ...lineFiles, ...pathspecs.map((path) => ({ path, fromRoot: false }))];

  switch (sub) {
    case "show":
      // A blob is printed whatever the flags; a commit's patch unless a no-patch flag says otherwise.
      return content({
        files: named,
        pathspecs,
        ambiguous: revisions,
        unnamed:
          ((patch || !noPatch) && (revisions.length > 0 || objects.length === 0)) ||
          revisions.some((revision) => !COMMIT.test(revision)),
        within,
      });
    case "log":
    case "whatchanged":
    case "reflog":
      return patch || lineFiles.length > 0
        ? content({ files: named, pathspecs, ambiguous: revisions, unnamed: patch, within })
        : undefined;
    case "diff":
      if (flags.includes("--no-index")) {
        const files = before.filter((arg) => !arg.startsWith("-")).map((path) => ({ path, fromRoot: false }));
        const all = [...files.map((file) => file.path), ...pathspecs];
        const within = literalPaths(all);
        return content({ files, pathspecs, unnamed: true, within, history: false, untracked: true });
      }
      // Without a revision (or `--cached`) a diff compares the working tree with the index only.
      return patch || !noPatch
        ? content({
            files: named,
            pathspecs,
            ambiguous: revisions,
            unnamed: true,
            within,
            history: cached(flags, revisions),
          })
        : undefined;
    case "diff-tree":
    case "diff-index":
    case "diff-files":
      return patch
        ? content({ files: named, pathspecs, ambiguous: revisions, unnamed: true, within })
        : undefined;
    case "grep":
      return grepContent(rest, content);
    case "blame":
    case "annotate":
      return content({
        files: [
          ...operands.map((path) => ({ path, fromRoot: false })),
          ...named,
          // git's option parser takes any unambiguous start: `--con` (`--co` may be `--color-by-age`).
          ...valuesOf(rest, "--contents", "--con".length),
        ],
        pathspecs,
      });
    case "cat-file":
    case "unpack-file":
      if (flags.some((flag) => /^-[tse]$/.test(flag))) return undefined;
      return content({
        files: objects,
        unnamed:
          flags.some((flag) => flag.startsWith("--batch")) ||
          revisions.some((r) => !/^(blob|tree|commit|tag)$/.test(r)),
      });
    default:
      if (QUIET_UNLESS_PATCH.has(sub)) {
        const shows =
          flags.some((flag) => /^(-p|--patch|-u)$/.test(flag)) ||
          (sub === "stash" && operands[0] === "show" && !noPatch) ||
          (sub === "status" && flags.some((flag) => /^(-v+|--verbose)$/.test(flag)));
        // `add -p`, `status -v` show the index; `checkout -p <rev>`, a stash, show commits.
        const history = sub === "stash" || operands.length > 0;
        return shows ? content({ files: named, pathspecs, unnamed: true, within, history }) : undefined;
      }
      if (WHOLE_TREES.has(sub)) return content({ files: named, pathspecs, unnamed: true, within });
      return content({ unnamed: true });
  }
}

/** `git grep`: the pattern is the first operand unless `-e`/`-f` gave it; `-f` reads a file. */
function grepContent(
  args: readonly string[],
  content: (found: Partial<GitContent>) => GitContent,
): GitContent {
  const { before, pathspecs } = splitAtDashDash(args);
  const { flags, operands } = splitRevisionArgs(
    before,
    new Set([
      "-e",
      "-f",
      "-A",
      "-B",
      "-C",
      "-m",
      "--max-depth",
      "--threads",
      "--max-count",
      "--context",
      "--before-context",
      "--after-context",
    ]),
  );
  const patternGiven = flags.some((flag) => /^(-e|-f)/.test(flag));
  const trees = patternGiven ? operands : operands.slice(1);
  const patternFiles = valuesOf(before, "-f");
  const noIndex = flags.some((flag) => flag === "--no-index" || flag === "--untracked");
  const objects = trees.flatMap(objectPath);
  return content({
    files: [...patternFiles, ...objects, ...pathspecs.map((path) => ({ path, fromRoot: false }))],
    pathspecs,
    ambiguous: trees.filter((tree) => objectPath(tree).length === 0),
    unnamed: true,
    within: literalPaths(pathspecs),
    history: trees.length > 0,
    untracked: noIndex,
  });
}

/** Whether a diff reaches past the index: a revision, or the index against HEAD (`--cached`). */
function cached(flags: readonly string[], revisions: readonly string[]): boolean {
  return revisions.length > 0 || flags.some((flag) => flag === "--cached" || flag === "--staged");
}

function splitAtDashDash(args: readonly string[]): { before: string[]; pathspecs: string[] } {
  const at = args.indexOf("--");
  return at === -1
    ? { before: [...args], pathspecs: [] }
    : { before: args.slice(0, at), pathspecs: args.slice(at + 1) };
}

/** Flags (with an attached or following value kept in the flag word) and operands, in order. */
function splitRevisionArgs(
  args: readonly string[],
  valued: ReadonlySet<string> = REVISION_VALUE,
): { flags: string[]; operands: string[] } {
  const flags: string[] = [];
  const operands: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (!arg.startsWith("-") || arg === "-") {
      operands.push(arg);
      continue;
    }
    const takesNext = valued.has(arg) && !arg.includes("=");
    if (takesNext && i + 1 < args.length) {
      flags.push(`${arg}${arg.startsWith("--") ? "=" : ""}${args[i + 1]}`);
      i++;
    } else flags.push(arg);
  }
  return { flags, operands };
}

/**
 * The values given to `option` (`-f file`, `-ffile`, `--contents=file`), as files of the working folder.
 * A long option is also matched by its start down to `shortest` characters (`--cont=file`).
 */
function valuesOf(
  args: readonly string[],
  option: string,
  shortest = option.length,
): { path: string; fromRoot: boolean }[] {
  const values: string[] = [];
  args.forEach((arg, i) => {
    if (option.startsWith("--")) {
      if (!namesLongOption(arg, option, shortest)) return;
      const name = arg.split("=")[0] as string;
      const value = arg === name ? args[i + 1] : arg.slice(name.length + 1);
      if (value !== undefined) values.push(value);
    } else if (arg === option && args[i + 1] !== undefined) values.push(args[i + 1] as string);
    else if (arg.startsWith(option) && arg.length > option.length && SHORT_ATTACHED.has(option.slice(1)))
      values.push(arg.slice(option.length));
  });
  return values.map((path) => ({ path, fromRoot: false }));
}

/** `<rev>:<path>` names a file of the repository (relative to its top, or to here with `./`). */
function objectPath(operand: string): { path: string; fromRoot: boolean }[] {
  const colon = operand.indexOf(":");
  // An expansion (`HEAD:$F`, `$(git rev-parse …)`) names no file this reading can know: a revision.
  if (colon === -1 || /[$`]/.test(operand)) return [];
  // `:/text` searches commit messages; `:0:path` is a stage of the index.
  const rest = operand.slice(colon + 1).replace(/^[0-3]:/, "");
  if (rest === "" || (colon === 0 && rest.startsWith("/"))) return [];
  if (rest.startsWith("./") || rest.startsWith("../")) return [{ path: rest, fromRoot: false }];
  return [{ path: rest, fromRoot: true }];
}

/** `-L<start>,<end>:<file>` and `-L:<func>:<file>` name a file (blame's `-L <start>,<end>` does not). */
function lineRangeFile(flag: string): { path: string; fromRoot: boolean }[] {
  if (!flag.startsWith("-L")) return [];
  const value = flag.slice(2);
  const file = value.slice(value.lastIndexOf(":") + 1);
  return value.includes(":") && file !== "" ? [{ path: file, fromRoot: false }] : [];
}

/** The pathspecs as literal paths, or undefined when one is magic (`:(exclude)`, `:/`) or a glob. */
function literalPaths(pathspecs: readonly string[]): string[] | undefined {
  if (pathspecs.length === 0) return undefined;
  return pathspecs.every((spec) => !/[*?[\]]/.test(spec) && !spec.startsWith(":"))
    ? [...pathspecs]
    : undefined;
}
