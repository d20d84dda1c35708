import { describe, expect, it } from "vitest";
import { nestedRuns } from "../../src/shell/wrappers.ts";

/**
 * What a git command runs besides git (`src/shell/git-runs.ts`), read from its words: the scripts and
 * commands it runs, and a note for each setting on its command line that may name a program.
 */
const runs = (command: string) => nestedRuns(command.split(" "));

describe("git's settings on its command line", () => {
  it.each([
    ["-c core.pager=less", ["!git setting core.pager may run a program"], ["less"]],
    ["--config-env=core.pager=PAGER", ["!git setting core.pager may run a program"], []],
    ["--config-env core.pager=PAGER", ["!git setting core.pager may run a program"], []],
    ["-c alias.l=!make", ["!git setting alias.l may run a program"], ["make"]],
    ["-c alias.l=log", ["!git setting alias.l may run a program"], []],
    ["-c credential.helper=!pass", ["!git setting credential.helper may run a program"], ["pass"]],
    ["-c protocol.ext.allow=!never", ["!git setting protocol.ext.allow may run a program"], []],
    ["-c color.ui=always", [], []],
    ["--exec-path=./bin", ["!git --exec-path runs git's programs from elsewhere"], []],
    ["--exec-path", [], []],
    ["--git-dir=.git", [], []],
  ])("git %s log: notes %j, runs %j", (options, markers, scripts) => {
    expect(runs(`git ${options} log`)).toEqual({ commands: [], scripts, markers });
  });
});

it("-c as git's last word is a setting of no name: a note, and nothing run", () => {
  expect(runs("git -c")).toEqual({ commands: [], scripts: [], markers: ["!git setting  may run a program"] });
});

describe("git's subcommands that run commands", () => {
  it.each([
    ["git rebase -x make main", ["make"]],
    ["git rebase --exec=make main", ["make"]],
    ["git rebase --exec make main", ["make"]],
    ["git -C sub rebase -x make main", ["make"]],
    ["git difftool -x meld HEAD", ["meld"]],
    ["git difftool --extcmd meld", ["meld"]],
    ["git filter-branch --tree-filter make HEAD", ["make"]],
    ["git filter-branch --msg-filter cat HEAD", ["cat"]],
    ["git submodule foreach make", ["make"]],
    ["git submodule --quiet foreach --recursive make all", ["make all"]],
    ["git submodule foreach make --recursive", ["make --recursive"]],
  ])("%s runs %j", (command, scripts) => {
    expect(runs(command).scripts).toEqual(scripts);
  });

  // Each of these options takes the next word as its value, which is never the command to run.
  it.each([
    "git rebase -s -x main",
    "git rebase --strategy -x main",
    "git rebase -X -x main",
    "git rebase --strategy-option -x main",
    "git rebase --onto -x main",
    "git difftool -t -x HEAD",
    "git difftool --tool -x HEAD",
    "git filter-branch --subdirectory-filter --tree-filter HEAD",
    "git filter-branch --original --tree-filter HEAD",
    "git filter-branch -d --tree-filter HEAD",
    "git filter-branch --state-branch --tree-filter HEAD",
  ])("%s runs nothing: -x or the filter is an option's value", (command) => {
    expect(runs(command)).toEqual({ commands: [], scripts: [], markers: [] });
  });

  it("bisect run runs its command; run elsewhere is an operand", () => {
    expect(runs("git bisect run make test").commands).toEqual([["make", "test"]]);
    expect(runs("git bisect start HEAD~5").commands).toEqual([]);
    expect(runs("git grep run rm").commands).toEqual([]);
    expect(runs("git log --oneline rm").commands).toEqual([]);
  });

  it("submodule runs a command only after foreach, and only when one is given", () => {
    expect(runs("git submodule status").scripts).toEqual([]);
    expect(runs("git submodule foreach").scripts).toEqual([]);
    expect(runs("git log foreach rm").scripts).toEqual([]);
  });
});
