import { describe, expect, it } from "vitest";
import { bashPermissionPatterns } from "../../src/permissions/bash-command.ts";
import { evaluateRequest } from "../../src/permissions/evaluate.ts";
import { READ_ONLY_BASH_RULES, REVIEW_BASH_RULES } from "../../src/permissions/read-only-bash-rules.ts";
import type { Ruleset } from "../../src/permissions/types.ts";

/**
 * Every command a read-only agent (`explore`, `plan`) runs without a prompt, and every test runner the
 * `review` agent runs, one by one: an agent file that says "explore may run `jq`" relies on each.
 */
const action = (rules: Ruleset, command: string) =>
  evaluateRequest(rules, "bash", bashPermissionPatterns(command)).action;

/** Commands that only read, each with arguments, as a model writes them. */
const READS = [
  "ls -la src",
  "cat package.json",
  "head -n 5 a.ts",
  "tail -n 5 a.ts",
  "wc -l a.ts",
  "grep -n foo a.ts",
  "egrep 'a|b' a.ts",
  "fgrep foo a.ts",
  "rg foo src",
  "find src -name '*.ts'",
  "sed -n 1,5p a.ts",
  "awk '{print $1}' a.ts",
  "jq .name package.json",
  "cut -d, -f1 a.csv",
  "sort a.txt",
  "uniq -c a.txt",
  "tr a-z A-Z",
  "nl a.ts",
  "column -t a.txt",
  "diff a.ts b.ts",
  "cmp a.bin b.bin",
  "comm a.txt b.txt",
  "pwd -P",
  "echo hello",
  "printf '%s\\n' x",
  "which node",
  "type ls",
  "command -v git",
  "file a.bin",
  "stat a.ts",
  "du -sh src",
  "df -h .",
  "tree -L 2",
  "basename src/a.ts",
  "dirname src/a.ts",
  "realpath a.ts",
  "readlink -f a.ts",
  "md5sum a.ts",
  "sha1sum a.ts",
  "sha256sum a.ts",
  "shasum a.ts",
  "cksum a.ts",
  "od -c a.bin",
  "hexdump -C a.bin",
  "tac a.txt",
  "rev a.txt",
  "paste a.txt b.txt",
  "fold -w 80 a.txt",
  "expand a.txt",
  "seq 1 3",
  "sleep 1",
  "test -f a.ts",
  "[ -f a.ts ]",
  "[[ -f a.ts ]]",
  "cd src",
  "uname -a",
  "id -u",
  "ps aux",
  "xargs echo",
];

const GIT_READS = [
  "status --short",
  "log -5",
  "diff HEAD",
  "show HEAD",
  "branch --list x",
  "rev-parse HEAD",
  "ls-files src",
  "ls-tree HEAD",
  "blame a.ts",
  "grep foo",
  "describe --tags",
  "shortlog -sn",
  "merge-base a b",
  "cat-file -p HEAD",
  "show-ref --heads",
  "tag --list v*",
  "tag -l v*",
  "stash list --stat",
  "config --get user.name",
  "config --list --show-origin",
];

/** Allowed only exactly: with arguments these change something. */
const EXACT = [
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

describe("a read-only agent's commands", () => {
  it.each(READS)("runs %s", (command) => {
    expect(action(READ_ONLY_BASH_RULES, command)).toBe("allow");
  });

  it.each(GIT_READS)("runs git %s, with and without --no-pager", (sub) => {
    expect(action(READ_ONLY_BASH_RULES, `git ${sub}`)).toBe("allow");
    expect(action(READ_ONLY_BASH_RULES, `git --no-pager ${sub}`)).toBe("allow");
  });

  it.each(EXACT)("runs %s as it is, and nothing more", (command) => {
    expect(action(READ_ONLY_BASH_RULES, command)).toBe("allow");
    expect(action(READ_ONLY_BASH_RULES, `${command} changed`)).toBe("deny");
  });

  it("shows the date in any format, and sets it never", () => {
    expect(action(READ_ONLY_BASH_RULES, "date +%Y-%m-%d")).toBe("allow");
    expect(action(READ_ONLY_BASH_RULES, "date -s 2020-01-01")).toBe("deny");
  });

  // A variable set by one command changes what the next allowed one runs: `cat` from a folder of
  // the workspace, `git` reading a planted `.gitconfig`, a subscript's `$(…)` run as the name is read.
  it.each([
    "read PATH <<< ./bin; cat x",
    "cat list | while read HOME; do git status; done",
    "read -r line",
    "read 'a[$(touch x)]' <<< 1",
    "printf -v PATH %s ./bin; cat x",
    "printf -vPATH %s ./bin",
    "printf -v 'a[$(touch x)]' %s 1",
  ])("refuses %j, which sets a shell variable", (command) => {
    expect(action(READ_ONLY_BASH_RULES, command)).toBe("deny");
  });

  it("never leaves the OS sandbox", () => {
    expect(evaluateRequest(READ_ONLY_BASH_RULES, "unsandboxed", ["ls"]).action).toBe("deny");
  });
});

describe("the review agent's test runners", () => {
  it.each(TEST_RUNNERS)(
    "runs %s with its arguments, never with a flag that rewrites or watches",
    (runner) => {
      expect(action(REVIEW_BASH_RULES, `${runner} src`)).toBe("allow");
      for (const flag of ["-u", "--update", "--fix", "--snapshot-update", "-w", "--watch"]) {
        expect(action(REVIEW_BASH_RULES, `${runner} ${flag}`), `${runner} ${flag}`).toBe("deny");
        expect(action(REVIEW_BASH_RULES, `${runner} src ${flag}=1`), `${runner} src ${flag}=1`).toBe("deny");
      }
    },
  );
});
