import type { PermissionRule, Ruleset } from "./types.ts";

const allow = (pattern: string): PermissionRule => ({ permission: "bash", pattern, action: "allow" });
const deny = (pattern: string): PermissionRule => ({ permission: "bash", pattern, action: "deny" });

/**
 * Commands that only read. Each is safe as a prefix because `bashPermissionPatterns` lists, as
 * separate patterns none of these match, everything that could write or run something else:
 * redirections (`> file`), substitutions, `xargs`/`find -exec` targets, `sed -i`/`w`/`e`,
 * `awk` `system`/`>`/`|`, `find -delete`, `sort -o`, `uniq in out`, `tree -o`, `git --output`.
 *
 * No command that sets a shell variable: `read PATH`, `printf -v PATH` make the next allowed name
 * (`cat`) run a workspace file, `read HOME` makes `git status` read a planted `.gitconfig`, and a name
 * with a subscript (`read 'a[$(rm x)]'`) runs the command inside it. Hence no `read`, and `printf`
 * without `-v` (denied below).
 */
const READ_ONLY_COMMANDS = [
  "ls",
  "cat",
  "head",
  "tail",
  "wc",
  "grep",
  "egrep",
  "fgrep",
  "rg",
  "find",
  "sed",
  "awk",
  "jq",
  "cut",
  "sort",
  "uniq",
  "tr",
  "nl",
  "column",
  "diff",
  "cmp",
  "comm",
  "pwd",
  "echo",
  "printf",
  "which",
  "type",
  "command -v",
  "file",
  "stat",
  "du",
  "df",
  "tree",
  "basename",
  "dirname",
  "realpath",
  "readlink",
  "md5sum",
  "sha1sum",
  "sha256sum",
  "shasum",
  "cksum",
  "od",
  "hexdump",
  "tac",
  "rev",
  "paste",
  "fold",
  "expand",
  "seq",
  "sleep",
  "test",
  "[",
  "[[",
  "cd",
  "uname",
  "id",
  "ps",
  "xargs",
];

const READ_ONLY_GIT = [
  "status",
  "log",
  "diff",
  "show",
  "branch --list",
  "rev-parse",
  "ls-files",
  "ls-tree",
  "blame",
  "grep",
  "describe",
  "shortlog",
  "merge-base",
  "cat-file",
  "show-ref",
  "tag --list",
  "tag -l",
  "stash list",
  "config --get",
  "config --list",
];

/** Exact commands: with arguments these would change something (`git branch x`, `date -s …`). */
const READ_ONLY_EXACT = [
  "true",
  "false",
  ":",
  "date",
  "whoami",
  "git branch",
  "git branch -a",
  "git branch -r",
  "git branch -v",
  "git branch -vv",
  "git branch --show-current",
  "git remote",
  "git remote -v",
  "git --no-pager remote -v",
  "git config -l",
  "node --version",
  "node -v",
  "npm --version",
  "npm -v",
  "python --version",
  "python3 --version",
  "go version",
  "cargo --version",
  "rustc --version",
];

/**
 * Bash rules of read-only agents (`explore`, `plan`): everything denied except commands that only
 * read, so such an agent cannot write by any path, bash included; nor may it leave the OS sandbox.
 */
export const READ_ONLY_BASH_RULES: Ruleset = [
  deny("*"),
  // Leaving the OS sandbox (`bash` with `outside_sandbox`) is never read-only.
  { permission: "unsandboxed", pattern: "*", action: "deny" },
  ...READ_ONLY_COMMANDS.map((command) => allow(`${command} *`)),
  ...READ_ONLY_GIT.flatMap((sub) => [allow(`git ${sub} *`), allow(`git --no-pager ${sub} *`)]),
  ...READ_ONLY_EXACT.map((command) => allow(command)),
  allow("date +*"),
  // `-v NAME` (or `-vNAME`) stores the output in a variable; the option comes first or not at all.
  deny("printf -v*"),
];

const TEST_RUNNERS = [
  "npm test",
  "npm run test",
  "pnpm test",
  "pnpm run test",
  "yarn test",
  "bun test",
  "npx vitest",
  "npx jest",
  "npx tsc --noEmit",
  "npx mocha",
  "node --test",
  "pytest",
  "python -m pytest",
  "python3 -m pytest",
  "go test",
  "go vet",
  "cargo test",
  "cargo check",
  "make test",
  "make check",
];

const UPDATE_FLAGS = ["-u", "--update", "--fix", "--snapshot-update", "-w", "--watch"];

/**
 * Bash rules of the `review` agent: read-only plus test runners, without the flags that rewrite
 * snapshots, fix files or never end (`-u`, `--update…`, `--fix`, `--watch`). Tests themselves run project code; a reviewer
 * is trusted with that, not with editing.
 */
export const REVIEW_BASH_RULES: Ruleset = [
  ...READ_ONLY_BASH_RULES,
  ...TEST_RUNNERS.flatMap((runner) => [
    allow(`${runner} *`),
    ...UPDATE_FLAGS.flatMap((flag) => [deny(`${runner} ${flag}*`), deny(`${runner} * ${flag}*`)]),
  ]),
];
