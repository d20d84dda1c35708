import { describe, expect, it } from "vitest";
import { bashPermissionPatterns } from "../../src/permissions/bash-command.ts";
import { evaluateRequest } from "../../src/permissions/evaluate.ts";
import { READ_ONLY_BASH_RULES } from "../../src/permissions/read-only-bash-rules.ts";
import type { Ruleset } from "../../src/permissions/types.ts";
import { nestedRuns } from "../../src/shell/wrappers.ts";

/**
 * A command that runs another (`sudo`, `env`, `xargs`, `find -exec` …) is checked as that command too:
 * a user who allows everything but `rm` must not see `rm` run through a wrapper, and an option's value
 * (`sudo -u rm …`, a user named rm) must not be taken for the command.
 */
const NO_RM: Ruleset = [
  { permission: "bash", pattern: "*", action: "allow" },
  { permission: "bash", pattern: "rm", action: "deny" },
  { permission: "bash", pattern: "rm *", action: "deny" },
];
const decide = (rules: Ruleset, command: string) =>
  evaluateRequest(rules, "bash", bashPermissionPatterns(command)).action;

/** Each wrapper with the options that take a value: `-o rm` is a value, never the command. */
const VALUE_OPTIONS: Array<[string, string[]]> = [
  [
    "sudo",
    [
      "-u",
      "-g",
      "-h",
      "-p",
      "-C",
      "-D",
      "-r",
      "-t",
      "-T",
      "-U",
      "--user",
      "--group",
      "--host",
      "--prompt",
      "--chdir",
    ],
  ],
  ["doas", ["-u", "-C"]],
  ["exec", ["-a"]],
  ["nice", ["-n", "--adjustment"]],
  ["ionice", ["-c", "-n", "-p", "-P", "-u", "--class", "--classdata"]],
  ["stdbuf", ["-i", "-o", "-e", "--input", "--output", "--error"]],
  ["/usr/bin/time", ["-f", "--format", "-o", "--output"]],
  ["env", ["-u", "-C", "--unset", "--chdir"]],
  ["watch", ["-n", "--interval", "-q", "--equexit"]],
  [
    "xargs",
    [
      "-a",
      "-d",
      "-E",
      "-I",
      "-L",
      "-n",
      "-P",
      "-s",
      "--arg-file",
      "--delimiter",
      "--max-args",
      "--max-procs",
      "--max-chars",
      "--process-slot-var",
    ],
  ],
];

describe("a command run by another command", () => {
  it.each([
    "/bin/rm -rf x",
    "sudo rm -rf x",
    "doas rm x",
    "nohup rm x",
    "setsid rm x",
    "exec rm x",
    "nice rm x",
    "nice -5 rm x",
    "nice -n 5 rm x",
    "ionice -c 3 rm x",
    "stdbuf -oL rm x",
    "time rm x",
    "time -p rm x",
    // Only GNU time reaches the wrapper: bash reads a leading `time` as its own keyword.
    "/usr/bin/time rm x",
    "/usr/bin/time -o out rm x",
    "command time rm x",
    "builtin eval 'rm x'",
    "command rm x",
    "command rm -v x",
    "env rm x",
    "env A=1 B=2 rm x",
    "env -u HOME rm x",
    "env -S 'rm x'",
    "env --split-string='rm -f' x",
    "env -S 'ls; rm x'",
    "env --split-string 'ls; rm x'",
    "env -S rm x",
    "timeout 5 rm x",
    "timeout -s KILL -k 1 5 rm x",
    "timeout --signal=KILL --kill-after=1 5 rm x",
    "timeout --signal KILL 5 rm x",
    "timeout --kill-after 1 5 rm x",
    "watch rm x",
    "watch -n 1 rm x",
    "watch -x rm x",
    "watch --exec rm x",
    // procps watch: `-d`/`--differences` take a value only attached (`-dn rm` is `-d` with value n).
    "watch --differences rm x",
    "watch -dn rm x",
    "xargs rm",
    "xargs -I {} rm {}",
    "xargs -0 -r rm",
    // GNU xargs: `--max-lines` (like `-l`) takes its value only as `--max-lines=N`.
    "xargs --max-lines rm",
    "find . -exec rm {} \\;",
    "find . -execdir rm {} +",
    "find . -ok rm {} \\;",
    "find . -okdir rm {} \\;",
    "find . -exec ls {} \\; -exec rm {} \\;",
    "find . -exec rm {}",
    "find . -exec sh -c 'rm x'",
    "find . -exec ls {} + -exec rm {} +",
    // `+` ends -exec only right after `{}`; anywhere else it is an argument.
    "find . -exec env -u + rm x \\;",
    "find . -exec sudo -p + rm x \\;",
    "find . -type d -exec env -C {} rm x \\;",
    "rg --pre rm foo",
    "sort --compress-program=rm big.txt",
    "sort --compress-program rm big.txt",
    "sh -c 'rm x'",
    "bash -c 'rm x'",
    "bash -lc 'rm x'",
    "bash -co posix 'rm x'",
    "bash -O extglob -c 'rm x'",
    "bash --rcfile r -c 'rm x'",
    "bash --init-file r -c 'rm x'",
    "zsh -c 'rm x'",
    "dash -c 'rm x'",
    "ksh -c 'rm x'",
    "eval rm x",
    "eval 'ls; rm x'",
    "trap 'rm x' EXIT",
    "sudo env A=1 nice timeout 5 rm x",
  ])("%s runs rm", (command) => {
    expect(decide(NO_RM, command)).toBe("deny");
  });

  it.each([
    "command -v rm",
    "command -V rm",
    "trap - EXIT",
    "trap '' INT",
    "trap EXIT",
    "trap -p",
    "env A=1",
    "env -u rm",
    "timeout -s rm 5 ls",
    "timeout --kill-after rm 5 ls",
    "watch -n rm ls",
    "watch --interval rm ls",
    "rg -e --pre rm",
    "rg -g rm --pre=ls x",
    "sort -k 1 rm",
    "bash -o rm x",
    "bash --init-file rm x",
    "bash script.sh rm",
    // A script file named rm, given its arguments; bash reads no option after the script's name.
    "sh rm",
    "bash rm -c x",
    "bash -c",
    "env ls -S 'rm x'",
    "env -S 'ls -l' rm",
    "watch -x ls 'a; rm x'",
    "watch --exec ls 'a; rm x'",
    "/usr/bin/time -o rm ls",
    "find . -name rm",
    "rm-stats --all",
    "constructor x",
    "toString",
    "hasOwnProperty x",
    "valueOf",
    "propertyIsEnumerable x",
  ])("%s does not", (command) => {
    expect(decide(NO_RM, command)).toBe("allow");
  });

  it.each(VALUE_OPTIONS.flatMap(([wrapper, options]) => options.map((option) => [wrapper, option])))(
    "%s %s takes a value, which is not a command",
    (wrapper, option) => {
      expect(decide(NO_RM, `${wrapper} ${option} rm ls`)).toBe("allow");
    },
  );

  // `-g --pre` is a glob (or, to older rg, a missing value): never a preprocessor to run.
  it.each(["-e", "-f", "-g", "-t", "-T", "-m", "-A", "-B", "-C", "-M", "-j", "-r", "-E"])(
    "rg %s takes a value, so a --pre after it is that value",
    (option) => {
      expect(decide(NO_RM, `rg ${option} --pre rm`)).toBe("allow");
    },
  );

  it("GNU time -o writes its report to the file it names", () => {
    expect(bashPermissionPatterns("/usr/bin/time -o out.txt ls")).toContain("> out.txt");
    expect(bashPermissionPatterns("/usr/bin/time --output=out.txt ls")).toContain("> out.txt");
  });
});

describe("the options after a wrapped command", () => {
  // A rule about `rm -rf` sees them: read as the wrapper's, `rm -rf x` would be checked as `rm x`.
  const NO_RM_RF: Ruleset = [
    { permission: "bash", pattern: "*", action: "allow" },
    { permission: "bash", pattern: "rm -rf *", action: "deny" },
  ];

  it.each([
    "sudo rm -rf x",
    "doas rm -rf x",
    "nohup rm -rf x",
    "exec rm -rf x",
    "nice rm -rf x",
    "ionice rm -rf x",
    "stdbuf rm -rf x",
    "/usr/bin/time rm -rf x",
    "command rm -rf x",
    "env rm -rf x",
    "timeout 5 rm -rf x",
    "watch rm -rf x",
    "watch -x rm -rf x",
    "xargs rm -rf x",
  ])("belong to it in %s", (command) => {
    expect(decide(NO_RM_RF, command)).toBe("deny");
  });
});

describe("a wrapper given nothing to run", () => {
  const WRAPPERS = [
    "sudo",
    "nohup",
    "nice",
    "/usr/bin/time",
    "time",
    "command",
    "timeout",
    "env",
    "trap",
    "find",
  ];
  const onlyWrappers: Ruleset = [
    { permission: "bash", pattern: "*", action: "deny" },
    ...WRAPPERS.flatMap((name) => [
      { permission: "bash", pattern: name, action: "allow" as const },
      { permission: "bash", pattern: `${name} *`, action: "allow" as const },
    ]),
  ];

  it.each([
    "sudo",
    "sudo -u root",
    "nohup",
    "nice -n 5",
    "/usr/bin/time",
    "/usr/bin/time -p",
    "command",
    "timeout 5",
    "env",
    "env A=1",
    "env A=1 B=2",
    "env -u HOME",
    "trap",
    "trap EXIT",
    "trap - INT",
    "trap '' INT",
    "trap -p",
    "trap -l",
    "trap -P",
    "find . -exec \\;",
  ])("%s runs no other command", (command) => {
    expect(decide(onlyWrappers, command)).toBe("allow");
  });

  it("nestedRuns of no words is nothing", () => {
    expect(nestedRuns([])).toEqual({ commands: [], scripts: [], markers: [] });
  });

  it("a command word naming a folder is checked as written, with no empty command beside it", () => {
    expect(bashPermissionPatterns("build/ x")).toEqual(["build/ x"]);
  });
});

describe("a wrapper option agentry does not know", () => {
  const rules: Ruleset = [
    { permission: "bash", pattern: "*", action: "deny" },
    ...["nice", "xargs", "trap", "ls"].flatMap((name) => [
      { permission: "bash", pattern: name, action: "allow" as const },
      { permission: "bash", pattern: `${name} *`, action: "allow" as const },
    ]),
  ];

  it.each(["nice -Z ls", "nice --frob ls", "xargs -Z ls", "xargs --frob ls", "trap -Z ls EXIT", "trap -Z"])(
    "makes %s impossible to allow by prefix",
    (command) => {
      expect(decide(rules, command)).toBe("deny");
    },
  );

  it.each([
    "nice ls",
    "nice -n 5 ls",
    "nice -5 ls",
    "trap -p",
    "trap -l",
    "trap -P",
    // After the handler bash reads signals, not options: `-Z` is a (bad) signal.
    "trap ls -Z EXIT",
    ...["-0", "-o", "-p", "-r", "-t", "-x"].map((flag) => `xargs ${flag} ls`),
    ...[
      "--null",
      "--open-tty",
      "--interactive",
      "--no-run-if-empty",
      "--verbose",
      "--exit",
      "--show-limits",
    ].map((flag) => `xargs ${flag} ls`),
    ...["-e", "-i", "-l", "--eof", "--replace", "--max-lines"].map((option) => `xargs ${option} ls`),
  ])("but %s is understood", (command) => {
    expect(decide(rules, command)).toBe("allow");
  });

  it("is named in the pattern a prompt shows", () => {
    const notes = bashPermissionPatterns("nice -Z ls").filter((pattern) => pattern.startsWith("!"));
    expect(notes).toEqual([expect.stringContaining("-Z")]);
  });

  it("xargs without a command runs echo, which read-only agents may run", () => {
    expect(decide(READ_ONLY_BASH_RULES, "find . -name '*.md' | xargs")).toBe("allow");
  });
});

// GNU tools (getopt_long) take any unambiguous start of a long option: `--sig KILL` is `--signal KILL`.
// Read as an unknown flag, its value was taken for the command and the real one went unseen.
describe("a long option shortened as getopt_long allows", () => {
  it.each([
    "timeout --sig KILL 5 rm -rf build",
    "timeout --kill 1 5 rm -rf build",
    "env --chd /tmp rm -rf build",
    "env --un HOME rm -rf build",
    "sudo --us root rm -rf build",
    "watch --int 1 rm -rf build",
    "xargs --max-p 2 rm",
    "sort --compress=rm -S 1K notes.txt",
  ])("%s is read as running rm", (command) => {
    expect(decide(NO_RM, command)).toBe("deny");
  });
});

// git runs shell source and commands of its own: a rule about rm holds there too.
describe("what git runs", () => {
  it.each([
    "git rebase -x 'rm -rf build' HEAD~3",
    "git rebase --exec='rm -rf build' main",
    "git difftool -x 'rm -rf build'",
    "git difftool --extcmd 'rm -rf build' HEAD",
    "git bisect run rm -rf build",
    "git submodule foreach 'rm -rf build'",
    "git submodule --quiet foreach --recursive rm -rf build",
    "git filter-branch --tree-filter 'rm -rf build' HEAD",
    "git -c core.pager='rm -rf build' log",
    "git -c alias.l='!rm -rf build' l",
    "git -C sub -c diff.bin.textconv='rm -rf build' diff",
  ])("%s is read as running rm", (command) => {
    expect(decide(NO_RM, command)).toBe("deny");
  });

  const GIT_ONLY: Ruleset = [{ permission: "bash", pattern: "git *", action: "allow" }];
  it.each([
    "git -c protocol.ext.allow=always fetch",
    "git --config-env=core.pager=PAGER log",
    "git -c core.pager=less log",
  ])("%s asks even where every git command is allowed: the setting may run a program", (command) => {
    expect(decide(GIT_ONLY, command)).toBe("ask");
  });

  it.each(["git -c color.ui=always log", "git -c user.name=me commit -m x", "git rebase -i main"])(
    "%s runs nothing else",
    (command) => {
      expect(decide(GIT_ONLY, command)).toBe("allow");
    },
  );
});
