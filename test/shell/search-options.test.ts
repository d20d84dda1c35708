import { describe, expect, it } from "vitest";
import { externalPaths } from "../../src/shell/external-paths.ts";
import { recursiveReadRoots } from "../../src/shell/recursive-reads.ts";

/**
 * grep and rg by their option tables. Which operand is the pattern, and whether grep walks folders,
 * depend on options the first reading did not know: `-d recurse`, a shortened `--recur`, a pattern
 * given attached to `-e`, the value of `-m`. Each case below was read wrongly before, in the direction
 * that lets a search read a file no rule was asked about (checked with GNU grep 3 and ripgrep 13).
 */
const WS = "/work/project";
const HOME = "/home/user";
const roots = (command: string) => recursiveReadRoots(command, WS);
const outside = (command: string) => externalPaths(command, WS, HOME);

describe("the folders grep and rg walk", () => {
  it.each([
    ["grep -d recurse", "grep -d recurse TOKEN", [WS]],
    ["grep -drecurse", "grep -drecurse TOKEN src", [`${WS}/src`]],
    ["grep --directories recurse", "grep --directories recurse TOKEN src", [`${WS}/src`]],
    ["grep --directories=rec (any start of the action)", "grep --directories=rec TOKEN", [WS]],
    ["grep --dir=recurse (a shortened option)", "grep --dir=recurse TOKEN", [WS]],
    ["grep --recur", "grep --recur TOKEN", [WS]],
    ["grep --deref", "grep --deref TOKEN lib", [`${WS}/lib`]],
    ["grep -r -m 1: 1 is -m's value, TOKEN the pattern", "grep -r -m 1 TOKEN", [WS]],
    ["grep -r -e A -e B: no pattern operand", "grep -r -e A -e B", [WS]],
    ["grep -rf with a pattern file", "grep -rf patterns.txt src", [`${WS}/src`]],
    ["rg -g: the glob is a value", "rg -g *.env SECRET", [WS]],
    ["rg --regexp=…: no pattern operand", "rg --regexp=SECRET /etc", ["/etc"]],
    ["rg -eSECRET: no pattern operand", "rg -eSECRET /etc", ["/etc"]],
    ["rg --files lists a folder", "rg --files /etc", ["/etc"]],
    ["cp --archive", "cp --archive src /tmp/copy", [`${WS}/src`, "/tmp/copy"]],
    ["cp --arch (a shortened option)", "cp --arch src /tmp/copy", [`${WS}/src`, "/tmp/copy"]],
    ["diff --recur", "diff --recur a b", [`${WS}/a`, `${WS}/b`]],
    ["cp -rv (r among other letters)", "cp -rv src /tmp/copy", [`${WS}/src`, "/tmp/copy"]],
  ])("%s", (_, command, expected) => {
    expect(roots(command)).toEqual(expected);
  });

  it.each([
    ["grep -d skip", "grep -d skip TOKEN src"],
    ["grep -d read", "grep --directories=read TOKEN src"],
    ["grep -d with no action", "grep --directories= TOKEN src"],
    ["grep -e r (r is the pattern)", "grep -e r notes.txt"],
    ["grep --regexp=r", "grep --regexp=r notes.txt"],
    // cp and diff by their letters, and their long options only by name
    ["cp of files", "cp readme.md /tmp/copy"],
    ["cp --preserve (an r, not -r)", "cp --preserve=mode src /tmp/copy"],
    ["cp --attributes-only (an a, not --archive)", "cp --attributes-only src /tmp/copy"],
    ["cp -- (no option at all)", "cp -- src /tmp/copy"],
    ["diff --brief (an r, not -r)", "diff --brief a b"],
  ])("%s does not walk folders", (_, command) => {
    expect(roots(command)).toEqual([]);
  });
});

describe("the files outside the workspace grep and rg read", () => {
  it.each([
    ["a pattern attached to -e", "grep -eroot /etc/shadow", ["/etc/shadow"]],
    ["a pattern given by --regexp=", "grep --regexp=root /etc/shadow", ["/etc/shadow"]],
    ["a pattern file", "grep -f /etc/shadow notes.txt", ["/etc/shadow"]],
    [
      "a file of names to leave out",
      "grep --exclude-from ~/.ssh/config x notes.txt",
      [`${HOME}/.ssh/config`],
    ],
    ["rg's pattern attached to -e", "rg -eSECRET /etc", ["/etc"]],
    ["rg --files", "rg --files /etc", ["/etc"]],
    ["rg's ignore file", "rg --ignore-file /etc/ignore x", ["/etc/ignore"]],
  ])("%s", (_, command, expected) => {
    expect(outside(command)).toEqual(expected);
  });

  // Given by an option, the pattern leaves every operand a path; a pattern file is read too.
  it.each([
    ["grep", "-e x"],
    ["grep", "--regexp x"],
    ["grep", "-f pats.txt"],
    ["grep", "--file pats.txt"],
    ["rg", "-e x"],
    ["rg", "--regexp x"],
    ["rg", "-f pats.txt"],
    ["rg", "--file pats.txt"],
    ["rg", "--type-list"],
  ])("%s %s: the first operand is a path", (command, option) => {
    expect(outside(`${command} ${option} /etc/hosts`)).toEqual(["/etc/hosts"]);
  });

  it.each([
    ["grep -f", "grep -f /etc/pats x"],
    ["grep --file", "grep --file /etc/pats x"],
    ["grep --exclude-from", "grep --exclude-from /etc/pats x"],
    ["rg -f", "rg -f /etc/pats x"],
    ["rg --file", "rg --file /etc/pats x"],
    ["rg --ignore-file", "rg --ignore-file /etc/pats x"],
  ])("%s names a file it reads", (_, command) => {
    expect(outside(command)).toEqual(["/etc/pats"]);
  });

  it("the pattern operand itself is not a path", () => {
    expect(outside("grep -m 1 /etc/ notes.txt")).toEqual([]);
    expect(outside("grep --regexp=/etc/ notes.txt")).toEqual([]);
    expect(outside("ag /etc/ src")).toEqual([]);
    expect(outside("ack --nocolor /etc/ src /var/log")).toEqual(["/var/log"]);
    expect(outside("rg -g *.ts /etc/ src")).toEqual([]);
  });
});
