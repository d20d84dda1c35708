import { describe, expect, it } from "vitest";
import { argumentEffects } from "../../src/shell/argument-effects.ts";

/**
 * Writes and command runs hidden in the arguments of commands a read-only allowlist admits: each is
 * an extra pattern (`> file`, `!…`) that no `sort *`-style prefix rule waves through.
 */
const effects = (command: string) => argumentEffects(command.split(" "));

describe("awk", () => {
  it.each(["awk", "gawk", "mawk", "nawk", "/usr/bin/awk"])(
    "%s: a program that only prints has no effect",
    (awk) => {
      expect(argumentEffects([awk, "{print $1}", "f"])).toEqual([]);
    },
  );

  it.each([
    "{system(x)}",
    "{system (x)}",
    '{print | "sh"}',
    '{print > "out"}',
    '"date" | getline d',
    "@load x",
  ])("%j may run commands or write files", (program) => {
    expect(argumentEffects(["awk", program, "f"])).toEqual(["!awk program may run commands or write files"]);
  });

  it("takes >= as a comparison", () => {
    expect(argumentEffects(["awk", "$1 >= 2", "f"])).toEqual([]);
  });

  it("reads the programs of -e/--source, and then every operand is a file", () => {
    expect(argumentEffects(["awk", "-e", "{system(x)}", "f"])).toEqual([
      "!awk program may run commands or write files",
    ]);
    expect(argumentEffects(["awk", "--source={print}", "system(x)"])).toEqual([]);
    expect(argumentEffects(["awk", "--source", "{print}", "@f"])).toEqual([]);
  });

  it("an option's value is not a program", () => {
    for (const option of ["-F", "-v", "--field-separator", "--assign"])
      expect(argumentEffects(["awk", option, "a>b", "{print}", "f"]), option).toEqual([]);
  });

  it("the operands after the program are files, whatever their names", () => {
    expect(argumentEffects(["awk", "{print}", "a>b", "@c", "x|y"])).toEqual([]);
  });

  it("cannot inspect a program file, nor what a library or extension does", () => {
    // With a program file every operand is a data file, even one named like a program.
    for (const option of ["-f", "-E", "--file", "--exec"])
      expect(argumentEffects(["awk", option, "p.awk", "a>b"]), option).toEqual([
        "!awk program file is not inspected",
      ]);
    for (const option of ["-i", "-l", "--include", "--load"])
      expect(argumentEffects(["awk", option, "lib", "{print}", "f"]), option).toEqual([
        "!awk loads a library or extension",
      ]);
  });

  it("knows the options that only change how it reads, and refuses those that write (-d, -p, -o) or any other", () => {
    for (const flag of [..."bcMnNOPrstSV"].map((letter) => `-${letter}`))
      expect(argumentEffects(["awk", flag, "{print}", "f"]), flag).toEqual([]);
    for (const flag of [
      "--posix",
      "--traditional",
      "--sandbox",
      "--characters-as-bytes",
      "--re-interval",
      "--version",
    ])
      expect(argumentEffects(["awk", flag, "{print}", "f"]), flag).toEqual([]);
    for (const flag of ["-d", "-p", "-o", "-W"])
      expect(argumentEffects(["awk", flag, "{print}", "f"]), flag).toContain(
        `!awk option ${flag} is not understood`,
      );
  });
});

describe("find", () => {
  it("-delete removes files; -fprint, -fprint0, -fprintf and -fls write the file they name", () => {
    expect(effects("find . -name x -delete")).toEqual(["!find -delete removes files"]);
    expect(effects("find . -fprint a -fprint0 b -fprintf c %p -fls d")).toEqual(["> a", "> b", "> c", "> d"]);
    expect(effects("find . -fprint")).toEqual(["> "]);
    expect(effects("find . -name fprint")).toEqual([]);
  });
});

describe("sort", () => {
  it("-o/--output writes its file", () => {
    expect(effects("sort -o out in")).toEqual(["> out"]);
    expect(effects("sort -oout in")).toEqual(["> out"]);
    expect(effects("sort --output=out in")).toEqual(["> out"]);
    expect(effects("sort --output out in")).toEqual(["> out"]);
    expect(effects("sort -r in")).toEqual([]);
  });

  it.each([
    "-k",
    "-t",
    "-S",
    "-T",
    "--key",
    "--field-separator",
    "--buffer-size",
    "--temporary-directory",
    "--parallel",
    "--files0-from",
    "--batch-size",
    "--random-source",
    "--compress-program",
  ])("the value of %s is not -o", (option) => {
    expect(effects(`sort ${option} -o in`)).toEqual([]);
  });

  it("a long option shortened as getopt_long allows is read as the whole one", () => {
    expect(effects("sed --in-pl=.bak s/a/b/ notes.txt")).toEqual(["> notes.txt"]);
    expect(effects("sed --fil=edit.sed notes.txt")).toEqual(["!sed script file is not inspected"]);
    expect(effects("sort --out=notes.txt in")).toEqual(["> notes.txt"]);
    expect(effects("sort --outp notes.txt in")).toEqual(["> notes.txt"]);
  });
});

describe("uniq", () => {
  it("writes its second operand, unless it is -", () => {
    expect(effects("uniq in out")).toEqual(["> out"]);
    expect(effects("uniq -c in out")).toEqual(["> out"]);
    expect(effects("uniq in -")).toEqual([]);
    expect(effects("uniq in")).toEqual([]);
  });

  it.each(["-f", "-s", "-w", "--skip-fields", "--skip-chars", "--check-chars"])(
    "the value of %s is not an operand",
    (option) => {
      expect(effects(`uniq ${option} 1 in`)).toEqual([]);
    },
  );
});

describe("tee, git, tree and file", () => {
  it("tee writes every file it names", () => {
    expect(effects("tee -a a b")).toEqual(["> a", "> b"]);
  });

  it("git: --output writes; -O and --open-files-in-pager run a pager; --ext-diff, --exec-path and --upload-pack run programs", () => {
    expect(effects("git diff --output x")).toEqual(["> x"]);
    expect(effects("git diff --output=y")).toEqual(["> y"]);
    expect(effects("git diff --output")).toEqual(["> "]);
    expect(effects("git grep -O foo")).toEqual(["!git -O may run a pager command"]);
    expect(effects("git grep -nO foo")).toEqual(["!git -O may run a pager command"]);
    expect(effects("git grep --open-files-in-pager=vim foo")).toEqual(["!git -O may run a pager command"]);
    expect(effects("git diff --ext-diff")).toEqual(["!git --ext-diff runs an external program"]);
    expect(effects("git --exec-path=/x log")).toEqual(["!git --exec-path=/x runs an external program"]);
    expect(effects("git fetch --upload-pack=x")).toEqual(["!git --upload-pack=x runs an external program"]);
    expect(effects("git log -n 5 --oneline")).toEqual([]);
    // git's own option parser takes a long option's start and a -O after a context number (real git 2.39).
    for (const command of [
      "git grep --open=vim foo",
      "git grep --op=vim foo",
      "git grep --open-files foo",
      "git grep -1Ovim foo",
      "git grep -n12Ovim foo",
    ])
      expect(effects(command), command).toEqual(["!git -O may run a pager command"]);
    expect(effects("git grep --o foo")).toEqual([]);
    // An O inside a word is not the option: a branch or a path.
    expect(effects("git log fix-Oauth")).toEqual([]);
  });

  it("tree: -o/--output writes its file, -R writes files", () => {
    expect(effects("tree -o out")).toEqual(["> out"]);
    expect(effects("tree --output=out")).toEqual(["> out"]);
    expect(effects("tree --output out")).toEqual(["> out"]);
    expect(effects("tree -R")).toEqual(["!tree -R writes files"]);
  });

  // As tree 2.1 does them (each run against the real tree).
  it.each([
    ["a letter's value is the next word, never attached", "tree -oa out d", ["> out"]],
    ["letters in a cluster take the next words in turn", "tree -Lo 1 out d", ["> out"]],
    ["--fromfile takes no value", "tree --fromfile -o out list", ["> out"]],
    ["a long option's value after = is not the next word", "tree --charset=x -o out d", ["> out"]],
    ["after -- every word is a folder", "tree -- -o d", []],
    ["an -o or --output at the end still writes", "tree -o", ["> "]],
    ["a --output at the end still writes", "tree --output", ["> "]],
    ["a letter that takes no value takes no word", "tree -a -o out d", ["> out"]],
    ["a folder's letters are not options", "tree docs -o out", ["> out"]],
  ])("tree: %s", (_, command, expected) => {
    expect(effects(command)).toEqual(expected);
  });

  it.each([
    "-L",
    "-P",
    "-I",
    "-H",
    "-T",
    "--filelimit",
    "--timefmt",
    "--charset",
    "--sort",
    "--gitfile",
    "--hintro",
    "--houtro",
    "--infofile",
  ])("tree: the value of %s is not -o", (option) => {
    expect(effects(`tree ${option} -o out d`)).toEqual([]);
  });

  it("file: -C/--compile writes a magic file; an option's value is not -C", () => {
    expect(effects("file -C")).toEqual(["!file -C writes a magic file"]);
    expect(effects("file --compile")).toEqual(["!file -C writes a magic file"]);
    for (const option of ["-m", "-f", "-F", "-e", "-P"])
      expect(effects(`file ${option} -C x`), option).toEqual([]);
  });

  it("other commands, and names that are not commands, have none", () => {
    expect(argumentEffects([])).toEqual([]);
    expect(effects("cat -o x")).toEqual([]);
    expect(effects("constructor x")).toEqual([]);
    expect(effects("/usr/bin/sort -o out in")).toEqual(["> out"]);
  });
});
