import { describe, expect, it } from "vitest";
import { bashPermissionPatterns } from "../../src/permissions/bash-command.ts";
import { evaluateRequest } from "../../src/permissions/evaluate.ts";
import { READ_ONLY_BASH_RULES } from "../../src/permissions/read-only-bash-rules.ts";
import type { Ruleset } from "../../src/permissions/types.ts";

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
  ["/usr/bin/time", ["-f", "--format"]],
  ["env", ["-u", "-C", "--unset", "--chdir"]],
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
      "--max-lines",
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
    "builtin eval 'rm x'",
    "command rm x",
    "env rm x",
    "env A=1 B=2 rm x",
    "env -u HOME rm x",
    "env -S 'rm x'",
    "env --split-string='rm -f' x",
    "timeout 5 rm x",
    "timeout -s KILL -k 1 5 rm x",
    "timeout --signal=KILL --kill-after=1 5 rm x",
    "watch rm x",
    "watch -n 1 rm x",
    "watch -x rm x",
    "watch --exec rm x",
    "xargs rm",
    "xargs -I {} rm {}",
    "xargs -0 -r rm",
    "find . -exec rm {} \\;",
    "find . -execdir rm {} +",
    "find . -ok rm {} \\;",
    "find . -okdir rm {} \\;",
    "find . -exec ls {} \\; -exec rm {} \\;",
    "find . -exec rm {}",
    "rg --pre rm foo",
    "sort --compress-program=rm big.txt",
    "sh -c 'rm x'",
    "bash -c 'rm x'",
    "bash -lc 'rm x'",
    "bash -co posix 'rm x'",
    "bash -O extglob -c 'rm x'",
    "bash --rcfile r -c 'rm x'",
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
    "/usr/bin/time -o rm ls",
    "find . -name rm",
    "rm-stats --all",
    "constructor x",
    "toString",
  ])("%s does not", (command) => {
    expect(decide(NO_RM, command)).toBe("allow");
  });

  it.each(VALUE_OPTIONS.flatMap(([wrapper, options]) => options.map((option) => [wrapper, option])))(
    "%s %s takes a value, which is not a command",
    (wrapper, option) => {
      expect(decide(NO_RM, `${wrapper} ${option} rm ls`)).toBe("allow");
    },
  );

  it("GNU time -o writes its report to the file it names", () => {
    expect(bashPermissionPatterns("/usr/bin/time -o out.txt ls")).toContain("> out.txt");
    expect(bashPermissionPatterns("/usr/bin/time --output=out.txt ls")).toContain("> out.txt");
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

  it.each(["nice -Z ls", "nice --frob ls", "xargs -Z ls", "xargs --frob ls", "trap -Z ls EXIT"])(
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
    ...["-e", "-i", "-l", "--eof", "--replace"].map((option) => `xargs ${option} ls`),
  ])("but %s is understood", (command) => {
    expect(decide(rules, command)).toBe("allow");
  });

  it("xargs without a command runs echo, which read-only agents may run", () => {
    expect(decide(READ_ONLY_BASH_RULES, "find . -name '*.md' | xargs")).toBe("allow");
  });
});
