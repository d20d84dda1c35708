import { describe, expect, it } from "vitest";
import { gitContentReads } from "../../src/shell/git-reads.ts";

const root = (path: string) => ({ path, fromRoot: true });
const here = (path: string) => ({ path, fromRoot: false });

/** The one git read of `command`, without its echo of the command. */
function readOf(command: string) {
  const reads = gitContentReads(command);
  expect(reads).toHaveLength(1);
  const { command: _, ...read } = reads[0]!;
  return read;
}

describe("gitContentReads: git commands that print repository files", () => {
  it.each([
    "git status",
    "git status --short -- .env",
    "git log --oneline -10",
    "git log --stat",
    "git log --format=%B -- .env",
    "git diff --stat",
    "git diff --name-only HEAD~3 -- .env",
    "git show --stat",
    "git branch -a",
    "git add .",
    "git commit -m 'show HEAD:.env'",
    "git ls-files",
    "git ls-tree -r HEAD",
    "git rev-parse HEAD:.env",
    "git cat-file -t HEAD:.env",
    "git stash list",
    "echo git show HEAD:.env",
  ])("%s prints no file content", (command) => {
    expect(gitContentReads(command)).toEqual([]);
  });

  it("names the file of an object, relative to the repository's top or to here", () => {
    expect(readOf("git show HEAD:.env")).toMatchObject({ files: [root(".env")], unnamed: false });
    expect(readOf("git show main~2:./sub/.env.local")).toMatchObject({
      files: [here("./sub/.env.local")],
      unnamed: false,
    });
    expect(readOf("git cat-file -p HEAD:config/.env")).toMatchObject({
      files: [root("config/.env")],
      unnamed: false,
    });
    expect(readOf("git --no-pager show :0:.env")).toMatchObject({ files: [root(".env")], unnamed: false });
    // A commit and a blob: the commit's patch may show any file.
    expect(readOf("git show HEAD HEAD:.env")).toMatchObject({ files: [root(".env")], unnamed: true });
  });

  it("names the file blame, -L, --no-index and grep -f read", () => {
    expect(readOf("git blame -L 1,5 .env")).toMatchObject({ files: [here(".env")], unnamed: false });
    expect(readOf("git log -L1,3:.env")).toMatchObject({ files: [here(".env")], unnamed: false });
    expect(readOf("git diff --no-index .env /tmp/x")).toMatchObject({
      files: [here(".env"), here("/tmp/x")],
      unnamed: true,
      untracked: true,
    });
    expect(readOf("git grep -f .env -- src")).toMatchObject({
      files: [here(".env"), here("src")],
      within: ["src"],
    });
  });

  it.each([
    ["git log -p", undefined],
    ["git log --patch --all", undefined],
    ["git log -U5 main", undefined],
    ["git log -S sk-live --oneline", undefined],
    ["git show", undefined],
    ["git show HEAD~3", undefined],
    ["git show --stat -p", undefined],
    ["git diff", undefined],
    ["git diff HEAD~1 -- src/ docs", ["src/", "docs"]],
    ["git diff -- '*.env'", undefined],
    ["git log -p -- ':!src'", undefined],
    ["git grep API_KEY", undefined],
    ["git grep -e API_KEY HEAD~2 -- config", ["config"]],
    ["git cat-file -p 4b825dc", undefined],
    ["git cat-file --batch", undefined],
    ["git stash show -p", undefined],
    ["git add -p", undefined],
    ["git status -v", undefined],
    ["git archive HEAD", undefined],
    ["git format-patch --stdout -1", undefined],
    ["git diff-tree -p HEAD", undefined],
  ])("%s may print files it does not name (within %j)", (command, within) => {
    expect(readOf(command)).toMatchObject({ unnamed: true, within });
  });

  it.each([
    ["git diff", false],
    ["git diff -- src", false],
    ["git diff --cached", true],
    ["git diff HEAD~1", true],
    ["git grep API_KEY", false],
    ["git grep API_KEY main", true],
    ["git add -p", false],
    ["git status -v", false],
    ["git checkout -p main", true],
    ["git stash show -p", true],
    ["git log -p", true],
    ["git show", true],
  ])("%s reaches commits beyond the index: %s", (command, history) => {
    expect(readOf(command)).toMatchObject({ unnamed: true, history });
  });

  // git runs the program a setting names (`core.fsmonitor` on `status`, an alias, a diff driver) with
  // the command's own access: it may print any file, committed or not.
  it.each([
    "git -c core.fsmonitor='./show-env >&2; :' status",
    "git -c alias.st='!cat .env' st",
    "git -c ALIAS.st='!cat .env' st",
    "git -c diff.external=./show-env log -p -- src",
    "git -c include.path=/tmp/more.gitconfig log --oneline",
    "git -c core.fsmonitor status",
    "git --no-pager -c core.fsmonitor=./hook status",
    "git --config-env=core.fsmonitor=HOOK status",
    "git --config-env core.fsmonitor=HOOK status",
    "git -c user.name=t -c core.fsmonitor=./hook commit -m m",
    "git --exec-path=./bin submodule status",
    "GIT_DIR=other git log --oneline",
    "GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.fsmonitor GIT_CONFIG_VALUE_0=./hook git status",
    "GIT_CONFIG_PARAMETERS=\"'core.fsmonitor'='./hook'\" git status",
    "env GIT_EXTERNAL_DIFF=./show git diff --stat",
    "sudo env GIT_CONFIG_GLOBAL=./config git status",
    "export GIT_CONFIG_GLOBAL=./config; git status",
    "GIT_DIR=other; export GIT_DIR; git status",
    // A variable git reads is most often in the environment already: setting it changes the exported one.
    "GIT_DIR=other; git status",
    "export GIT_PAGER=cat GIT_CONFIG_GLOBAL=./config; git status",
  ])("%s may run a program that prints any file", (command) => {
    expect(readOf(command)).toMatchObject({ unnamed: true, within: undefined, untracked: true });
  });

  it("a git command inside such a setting's program is read as well", () => {
    const reads = gitContentReads("git -c core.fsmonitor='git show HEAD:.env >&2; :' status");
    expect(reads.map(({ command, unnamed, files }) => ({ command, unnamed, files }))).toEqual([
      { command: "git -c core.fsmonitor=git show HEAD:.env >&2; : status", unnamed: true, files: [] },
      { command: "git show HEAD:.env", unnamed: false, files: [root(".env")] },
    ]);
  });

  it.each([
    "git -c user.email=t@t -c user.name=t commit -qm m",
    "git -c author.name=t -c committer.email=t@t commit -m m",
    "git -c color.ui=always log --oneline",
    "git -c advice.detachedHead=false switch main",
    "git -c core.quotePath=false status",
    "git -c init.defaultBranch=main init",
    "git --config-env=user.name=NAME commit -m m",
    "git --exec-path",
    // Without a value it prints git's folder and exits: the subcommand after it never runs.
    "git --exec-path status",
    "git --git-dir=.git --work-tree=. status",
    "GIT_PAGER=cat git log --oneline",
    "GIT_TERMINAL_PROMPT=0 GIT_OPTIONAL_LOCKS=0 git status",
    "GIT_AUTHOR_NAME=t GIT_COMMITTER_EMAIL=t@t git commit -m m",
    "export GIT_PAGER=cat; git log --oneline",
    "git commit -m GIT_DIR=x",
    "GIT_DIR=x echo; git status",
  ])("%s sets nothing that runs a program: no content", (command) => {
    expect(gitContentReads(command)).toEqual([]);
  });

  it("takes an alias or a subcommand it does not know for one that may print anything", () => {
    expect(readOf("git lg")).toMatchObject({ unnamed: true, within: undefined });
    expect(readOf("git -c alias.s=show s HEAD:.env")).toMatchObject({ unnamed: true });
  });

  it("keeps the operands that may be paths, and marks paths relative to another folder", () => {
    expect(readOf("git log -p src/a.ts")).toMatchObject({ ambiguous: ["src/a.ts"], within: undefined });
    expect(readOf("git -C sub show HEAD:.env")).toMatchObject({ elsewhere: true });
    expect(readOf("cd sub && git show HEAD:.env")).toMatchObject({ elsewhere: true });
    expect(readOf("env -C sub git show HEAD:.env")).toMatchObject({ elsewhere: true });
    expect(readOf("env --chdir=sub git show HEAD:.env")).toMatchObject({ elsewhere: true });
    expect(readOf("sudo env -iC sub git show HEAD:.env")).toMatchObject({ elsewhere: true });
    expect(readOf("GIT_WORK_TREE=sub git show HEAD:.env")).toMatchObject({ elsewhere: true });
    expect(readOf("git show HEAD:.env")).toMatchObject({ elsewhere: false });
    // Only env's own -C moves; another command's -C, or env without it, leaves git here.
    for (const command of [
      "env git show HEAD:.env",
      "env NAME=a-C git show HEAD:.env",
      "ls -C; git show HEAD:.env",
      "sudo -C 3 git show HEAD:.env",
    ]) {
      expect(readOf(command), command).toMatchObject({ elsewhere: false });
    }
  });

  it("finds git inside other commands", () => {
    for (const command of [
      "sh -c 'git show HEAD:.env'",
      "echo $(git show HEAD:.env)",
      "/usr/bin/git show HEAD:.env",
      "ls && git show HEAD:.env | head",
      "timeout 5 git show HEAD:.env",
      "sudo timeout 5 git show HEAD:.env",
      "sudo sh -c 'git show HEAD:.env'",
      "timeout 5 env git show HEAD:.env",
    ]) {
      expect(readOf(command).files, command).toEqual([root(".env")]);
    }
    expect(readOf("echo HEAD | xargs git show")).toMatchObject({ unnamed: true });
  });

  it("finds git eight wrappers deep, and takes what runs deeper for git that may print anything", () => {
    const nest = (levels: number, command: string): string =>
      levels === 0 ? command : nest(levels - 1, `sh -c ${JSON.stringify(command)}`);
    expect(readOf(nest(8, "git show HEAD:.env")).files).toEqual([root(".env")]);
    expect(readOf(nest(9, "git show HEAD:.env"))).toMatchObject({
      files: [],
      unnamed: true,
      untracked: true,
    });
    expect(readOf(nest(4, "sudo timeout 5 nice git show HEAD:.env")).files).toEqual([root(".env")]);
    expect(gitContentReads(nest(12, "ls"))).toHaveLength(1);
    expect(gitContentReads(nest(8, "ls"))).toEqual([]);
    // The depth counts wrapper commands as it counts scripts: a wrapper at the last level hides git.
    expect(readOf(nest(8, "sudo git show HEAD:.env"))).toMatchObject({ files: [], unnamed: true });
    const wrapped = (levels: number) => `${"sudo ".repeat(levels)}git show HEAD:.env`;
    expect(readOf(wrapped(8)).files).toEqual([root(".env")]);
    expect(readOf(wrapped(9))).toMatchObject({ files: [], unnamed: true, untracked: true });
  });

  it("drops a command that names nothing and prints nothing else (blame of no file)", () => {
    expect(gitContentReads("git blame")).toEqual([]);
    expect(gitContentReads("git cat-file blob")).toEqual([]);
  });
});
