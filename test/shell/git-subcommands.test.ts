import { describe, expect, it } from "vitest";
import { gitContentReads } from "../../src/shell/git-reads.ts";

const root = (path: string) => ({ path, fromRoot: true });
const here = (path: string) => ({ path, fromRoot: false });

/** The one git read of `command`, without its echo of the command. */
function readOf(command: string) {
  const reads = gitContentReads(command);
  expect(reads, command).toHaveLength(1);
  const { command: _, ...read } = reads[0]!;
  return read;
}

/** What a subcommand may print of anything: no file named, no limit, the index and the history. */
const ANYTHING = {
  files: [],
  pathspecs: [],
  ambiguous: [],
  unnamed: true,
  within: undefined,
  history: true,
  untracked: false,
  elsewhere: false,
};

describe("gitSubcommand: what each git subcommand may print, by its arguments", () => {
  it.each([
    "git",
    "git --version",
    "git --no-pager",
    "git reflog",
    "git reflog show main",
    "git whatchanged --oneline",
    "git diff-tree --stat HEAD",
    "git diff-index --name-only HEAD",
    "git diff-files",
    "git cat-file -t --allow-unknown-type HEAD:.env",
    "git cat-file -s HEAD:.env",
    "git cat-file -e HEAD:.env",
    "git status -uno",
    "git status -uall --short",
    "git stash list",
    "git stash show --stat",
    "git commit -m m",
  ])("%s prints no file content", (command) => {
    expect(gitContentReads(command)).toEqual([]);
  });

  it.each([
    "git diff-tree -p HEAD",
    "git diff-index -p HEAD",
    "git diff-files -p",
    "git reflog -p",
    "git whatchanged -p",
  ])("%s prints patches of any file", (command) => {
    expect(readOf(command)).toMatchObject({ unnamed: true, within: undefined });
  });

  it("takes a subcommand it does not know for one that may print anything, whatever its pathspecs", () => {
    expect(readOf("git lg")).toEqual(ANYTHING);
    expect(readOf("git lg -- src")).toEqual(ANYTHING);
    expect(readOf("git --no-pager lg")).toEqual(ANYTHING);
  });

  it("marks only the global options that move git to another folder", () => {
    expect(readOf("git --no-pager show HEAD:.env")).toMatchObject({ elsewhere: false });
    expect(readOf("git --no-pager --literal-pathspecs show HEAD:.env")).toMatchObject({ elsewhere: false });
    for (const option of ["-C sub", "--git-dir=sub/.git", "--git-dir sub/.git", "--work-tree=sub"]) {
      expect(readOf(`git ${option} show HEAD:.env`), option).toMatchObject({
        files: [root(".env")],
        elsewhere: true,
      });
    }
  });

  it("names the files of blame and annotate, the file --contents reads among them", () => {
    expect(readOf("git annotate src/a.ts")).toEqual({
      ...ANYTHING,
      files: [here("src/a.ts")],
      unnamed: false,
    });
    expect(readOf("git blame --contents=/tmp/x src/a.ts")).toMatchObject({
      files: [here("src/a.ts"), here("/tmp/x")],
      unnamed: false,
    });
    // git takes any unambiguous start of a long option: these print .env's lines (real git 2.39).
    for (const command of [
      "git blame --cont=.env a",
      "git annotate --con=.env a",
      "git blame --conten .env a",
    ])
      expect(readOf(command).files, command).toContainEqual(here(".env"));
    expect(readOf("git blame -- a").files).toEqual([here("a")]);
    // Written apart, the value is the next word (also an operand to this reading); last, there is none.
    expect(readOf("git blame --contents .env src/a.ts").files).toEqual([
      here(".env"),
      here("src/a.ts"),
      here(".env"),
    ]);
    expect(readOf("git blame src/a.ts --contents").files).toEqual([here("src/a.ts")]);
  });

  it("reads the two files --no-index compares, from the working tree, and only those", () => {
    expect(readOf("git diff --no-index a.txt b.txt")).toEqual({
      ...ANYTHING,
      files: [here("a.txt"), here("b.txt")],
      within: ["a.txt", "b.txt"],
      history: false,
      untracked: true,
    });
  });

  it("limits archive and format-patch to their pathspecs", () => {
    expect(readOf("git archive HEAD -- src")).toMatchObject({
      files: [here("src")],
      within: ["src"],
      ambiguous: [],
      unnamed: true,
    });
    expect(readOf("git format-patch -1 -- src docs")).toMatchObject({ within: ["src", "docs"] });
    // A glob or magic pathspec is no literal folder: the limit is dropped, not widened by a guess.
    expect(readOf("git archive HEAD -- src 'docs/*'")).toMatchObject({ within: undefined });
    expect(readOf("git archive HEAD -- ':!src' docs")).toMatchObject({ within: undefined });
  });
});

describe("gitSubcommand: show prints a blob whatever its flags", () => {
  it.each([
    ["git show --stat HEAD", false],
    ["git show -s HEAD~1", false],
    ["git show --name-only main^", false],
    ["git show --stat main..topic", false],
    // A tag or an object id may name a blob (`git tag env HEAD:.env`).
    ["git show --stat env-tag", true],
    ["git show -s 4b825dc", true],
    ["git show --no-patch $(git rev-parse HEAD:.env)", true],
    ["git show HEAD:$FILE", true],
    ["git show HEAD:`echo .env`", true],
  ])("%s may print files it does not name: %s", (command, unnamed) => {
    expect(readOf(command)).toMatchObject({ unnamed });
  });
});

describe("gitSubcommand: cat-file and unpack-file", () => {
  it.each([
    ["git cat-file -p HEAD:.env", { files: [root(".env")], unnamed: false }],
    ["git cat-file blob HEAD:.env", { files: [root(".env")], unnamed: false }],
    ["git unpack-file HEAD:.env", { files: [root(".env")], unnamed: false }],
    // An object by any other name (a tag, a branch, an id) may be any file's blob.
    ["git cat-file -p secret-blob", { files: [], unnamed: true }],
    ["git cat-file -p tag-v1", { files: [], unnamed: true }],
    ["git cat-file -p v1-tag", { files: [], unnamed: true }],
    ["git unpack-file 4b825dc", { files: [], unnamed: true }],
    ["git cat-file -p HEAD:$FILE", { files: [], unnamed: true }],
    ["git cat-file --batch --buffer", { files: [], unnamed: true }],
    ["git cat-file --batch-command", { files: [], unnamed: true }],
    // `--follow-s` is git's abbreviation of `--follow-symlinks`, no `-s`.
    ["git cat-file --batch --follow-s", { files: [], unnamed: true }],
  ])("%s", (command, read) => {
    expect(readOf(command)).toMatchObject(read);
  });
});

describe("gitSubcommand: add, commit, stash, status and the like show hunks only when asked", () => {
  it.each([
    ["git add -p", false],
    ["git add --patch src", true],
    ["git checkout -p main", true],
    ["git commit -p", false],
    ["git reset -p HEAD~1", true],
    // `git stash -p` shows the working tree against HEAD: the committed side too.
    ["git stash -p", true],
    ["git stash show", true],
    ["git stash show stash@{1}", true],
    ["git status -v", false],
    ["git status -vv", false],
    ["git status --verbose", false],
  ])("%s shows hunks (history: %s)", (command, history) => {
    expect(readOf(command)).toMatchObject({ unnamed: true, history });
  });

  it.each([
    "git status -sv",
    "git status -vs",
    // `--no-v` is git's abbreviation of `--no-verbose`.
    "git status --no-v",
    // `-v` shows hunks for status only; `show` is a stash's subcommand, elsewhere a branch or a file.
    "git commit -v -m m",
    "git add -v .",
    "git checkout show",
    "git add show",
    // A value that ends like a flag is a value.
    "git commit --author=ci-p -m m",
    "git commit --author ci-u -m m",
  ])("%s shows none", (command) => {
    expect(gitContentReads(command)).toEqual([]);
  });
});

describe("gitSubcommand: grep's pattern, trees and sources", () => {
  // Each option's value is the next word: neither it nor the pattern after it is a tree.
  it.each([
    "-e KEY",
    "-A 3 KEY",
    "-B 3 KEY",
    "-C 3 KEY",
    "-m 3 KEY",
    "--max-depth 2 KEY",
    "--threads 2 KEY",
    "--max-count 3 KEY",
    "--context 3 KEY",
    "--before-context 3 KEY",
    "--after-context 3 KEY",
    "-f patterns.txt",
    "--exclude-standard KEY",
    "--files-with-matches KEY",
  ])("git grep %s searches the index only", (args) => {
    expect(readOf(`git grep ${args}`)).toMatchObject({ ambiguous: [], history: false, untracked: false });
  });

  it("searches the trees after the pattern, an object's path by name and a revision as a maybe-path", () => {
    expect(readOf("git grep -e KEY HEAD~1")).toMatchObject({ ambiguous: ["HEAD~1"], history: true });
    expect(readOf("git grep -n KEY main HEAD:src")).toMatchObject({
      files: [root("src")],
      ambiguous: ["main"],
      history: true,
    });
    expect(readOf("git grep -f patterns.txt -- src")).toMatchObject({
      files: [here("patterns.txt"), here("src")],
    });
    expect(readOf("git grep -fpatterns.txt")).toMatchObject({ files: [here("patterns.txt")] });
    // A short option's attached value is all of the rest, `=` too; `-f` with no file after it names none.
    expect(readOf("git grep -f=patterns.txt")).toMatchObject({ files: [here("=patterns.txt")] });
    expect(readOf("git grep -e KEY -f")).toMatchObject({ files: [] });
  });

  it.each([
    ["git grep --untracked KEY", true],
    ["git grep -n --no-index KEY", true],
    ["git grep -n --untracked --cached KEY", true],
    ["git grep -n KEY", false],
  ])("%s searches files git does not track: %s", (command, untracked) => {
    expect(readOf(command)).toMatchObject({ untracked });
  });
});

describe("gitSubcommand: revisions, objects and line ranges of log, show and diff", () => {
  it.each([
    ["git diff --staged", true],
    ["git diff --cached -- src", true],
    ["git diff -- src", false],
    ["git diff -w --color", false],
  ])("%s reaches commits beyond the index: %s", (command, history) => {
    expect(readOf(command)).toMatchObject({ unnamed: true, history });
  });

  it.each([
    // A value option's next word is its value, not a revision or a path.
    ["git log -p -n 5 src/a.ts", { ambiguous: ["src/a.ts"] }],
    ["git log -p --author alice", { ambiguous: [] }],
    ["git log -p --since yesterday -- src", { ambiguous: [], within: ["src"] }],
    ["git log -p -", { ambiguous: ["-"] }],
    // The last word with no value to take is a flag.
    ["git log -p --author", { ambiguous: [] }],
    // `--find-object <id>` lists the commits that touch a blob: taken for a patch, as `-S` is.
    ["git log --find-object 4b825dc --oneline", { ambiguous: [], unnamed: true }],
    ["git show -n 1 HEAD:.env", { files: [root(".env")], unnamed: false }],
    ["git show --format=%H HEAD:.env", { files: [root(".env")], unnamed: false }],
  ])("%s", (command, read) => {
    expect(readOf(command)).toMatchObject(read);
  });

  it.each([
    // `:/text` searches commit messages; an empty path names no file; `:0:path` is a stage.
    ["git show :/fix", { files: [], unnamed: true }],
    ["git show :/fix HEAD:.env", { files: [root(".env")], unnamed: true }],
    ["git show HEAD:", { files: [], unnamed: true }],
    ["git show :2:.env", { files: [root(".env")], unnamed: false }],
    ["git show HEAD:src/0:x", { files: [root("src/0:x")], unnamed: false }],
    ["git show HEAD:/etc/x", { files: [root("/etc/x")], unnamed: false }],
    ["git show HEAD:../x", { files: [here("../x")], unnamed: false }],
    ["git show HEAD:sub/../x", { files: [root("sub/../x")], unnamed: false }],
  ])("%s", (command, read) => {
    expect(readOf(command)).toMatchObject(read);
  });

  it.each([
    ["git log -L1,3:src/a.ts", [here("src/a.ts")]],
    ["git log -L :main:src/a.ts", [here("src/a.ts")]],
    ["git log -L1,3:", []],
    ["git log -L 1,3", []],
  ])("%s follows the lines of %j", (command, files) => {
    const reads = gitContentReads(command);
    expect(reads.flatMap((read) => read.files)).toEqual(files);
    for (const read of reads) expect(read.unnamed).toBe(false);
  });

  it("names no file for a flag that only starts like -L", () => {
    expect(readOf("git log -p --left-right:x")).toMatchObject({ files: [] });
  });
});
