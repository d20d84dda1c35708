import { describe, expect, it } from "vitest";
import { recursiveReadRoots } from "../../src/shell/recursive-reads.ts";

/**
 * The folders a command reads recursively: without the OS sandbox the bash tool asks `read` for every
 * file under them, so a missed root lets a search read a `.env` the rules keep back.
 */
const WS = "/work/project";
const roots = (command: string) => recursiveReadRoots(command, WS);

describe("recursiveReadRoots", () => {
  it.each([
    ["grep -r", "grep -r TOKEN src"],
    ["grep -R", "grep -R TOKEN src"],
    ["grep -r among other letters", "grep -inr TOKEN src"],
    ["grep --recursive", "grep --recursive TOKEN src"],
    ["grep --dereference-recursive", "grep --dereference-recursive TOKEN src"],
    ["grep --directories=recurse", "grep --directories=recurse TOKEN src"],
    ["egrep -r", "egrep -r TOKEN src"],
    ["fgrep -r", "fgrep -r TOKEN src"],
    ["rg, whatever its flags", "rg -n TOKEN src"],
    ["ag, whatever its flags", "ag TOKEN src"],
    ["ack, whatever its flags", "ack TOKEN src"],
    ["/usr/bin/grep -r", "/usr/bin/grep -r TOKEN src"],
  ])("%s: the first operand is the pattern, the others are the folders read", (_, command) => {
    expect(roots(command)).toEqual([`${WS}/src`]);
  });

  it.each([
    ["cp -r", "cp -r src /tmp/copy", [`${WS}/src`, "/tmp/copy"]],
    ["cp -a", "cp -a src dst", [`${WS}/src`, `${WS}/dst`]],
    ["diff -r", "diff -r a b", [`${WS}/a`, `${WS}/b`]],
    ["tar, whatever its flags", "tar -czf out.tgz src", [`${WS}/out.tgz`, `${WS}/src`]],
    ["a folder above the workspace", "grep -r TOKEN ..", ["/work"]],
  ])("%s: every operand is read", (_, command, expected) => {
    expect(roots(command)).toEqual(expected);
  });

  it.each([
    ["a searcher that names no folder", "grep -rn TOKEN"],
    ["rg with no folder", "rg TOKEN"],
    ["xargs running a reader", "find . -type f | xargs cat"],
    ["find -exec", "find . -name '*.env' -exec cat {} +"],
    ["find -execdir", "find . -execdir cat {} ;"],
    ["find -ok", "find . -ok cat {} ;"],
    ["find -okdir", "find . -okdir cat {} ;"],
    ["parallel", "ls | parallel cat"],
  ])("%s reads the whole workspace", (_, command) => {
    expect(roots(command)).toEqual([WS]);
  });

  it.each([
    ["grep without -r", "grep pattern README"],
    ["grep with other short flags", "grep -n -i pattern README"],
    ["grep with long options that hold an r", "grep --color=auto --regexp=pattern README"],
    ["find alone, which lists names", "find . -name x-exec -executable"],
    ["ls -R, which lists names", "ls -R src"],
    ["cat", "cat a b"],
    ["a redirection with no command", "> out.txt"],
  ])("%s reads nothing recursively", (_, command) => {
    expect(roots(command)).toEqual([]);
  });

  it("finds the searches a wrapper or a script runs", () => {
    expect(roots("sudo grep -r TOKEN /etc")).toEqual(["/etc"]);
    expect(roots("sh -c 'grep -r TOKEN /etc'")).toEqual(["/etc"]);
  });

  it("reads scripts four levels deep; a deeper one may read anything, so the whole workspace is a root", () => {
    expect(roots(`${"eval ".repeat(4)}grep -r TOKEN src`)).toEqual([`${WS}/src`]);
    expect(roots(`${"eval ".repeat(5)}grep -r TOKEN src`)).toEqual([WS]);
    expect(roots(`${"eval ".repeat(5)}cat a.txt`)).toEqual([WS]);
  });
});
