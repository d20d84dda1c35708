import { describe, expect, it } from "vitest";
import { bashPermissionPatterns, isReadOnlyBashCommand } from "../../src/permissions/bash-command.ts";

/** What a redirection writes, as the permission check sees it: a file, unless it only reads or duplicates. */
describe("redirections that write nothing", () => {
  it.each(["/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty", "/dev/fd/1", "/dev/fd/2"])(
    "> %s",
    (target) => {
      expect(bashPermissionPatterns(`ls > ${target}`)).toEqual(["ls"]);
    },
  );

  it.each([
    "ls < in",
    "cat <<EOF\nx\nEOF",
    "cat <<-EOF\n\tx\n\tEOF",
    "cat <<< word",
    "cat <&3",
    "ls >&2",
    "ls 2>&1",
    "ls >&-",
    "ls 1>&2-",
    "echo x >&10",
    "ls 2>&12-",
  ])("%j only reads or duplicates a descriptor", (command) => {
    expect(bashPermissionPatterns(command).filter((pattern) => pattern.startsWith(">"))).toEqual([]);
  });

  it("but >&file writes the file, and /dev/fd/3 is a write", () => {
    expect(bashPermissionPatterns("ls >&out")).toContain("> out");
    expect(bashPermissionPatterns("ls >&2x")).toContain("> 2x");
    expect(bashPermissionPatterns("ls > /dev/fd/3")).toContain("> /dev/fd/3");
  });

  // Only `>&` takes a number for a descriptor: after `>`, `>>`, `2>` or `&>` it is a file's name, and a
  // name that merely ends like a descriptor (`log1`, `a-`) is a file after `>&` too.
  it.each([
    ["echo hi > 1", "> 1"],
    ["ls >> 2", "> 2"],
    ["ls 3> 1", "> 1"],
    ["ls &> 1", "> 1"],
    ["ls > -", "> -"],
    ["ls >& log1", "> log1"],
    ["ls >&a-", "> a-"],
  ])("%j writes a file named like a descriptor", (command, written) => {
    expect(bashPermissionPatterns(command)).toContain(written);
    expect(isReadOnlyBashCommand(command)).toBe(false);
  });
});

describe("commands nested past what is inspected", () => {
  it("are refused by a note, not passed: sixteen wrappers deep is followed, seventeen is not", () => {
    const note = "!command nests too deeply to inspect";
    expect(bashPermissionPatterns(`${"eval ".repeat(20)}ls`)).toContain(note);
    expect(bashPermissionPatterns(`${"sudo ".repeat(16)}rm x`)).not.toContain(note);
    expect(bashPermissionPatterns(`${"sudo ".repeat(16)}rm x`)).toContain("rm x");
    expect(bashPermissionPatterns(`${"sudo ".repeat(17)}rm x`)).toContain(note);
  });

  it("holds for scripts too: an assignment sixteen evals deep is read, seventeen deep only the note stands for it", () => {
    const note = "!command nests too deeply to inspect";
    const innermost = (depth: number) =>
      bashPermissionPatterns(`${"eval ".repeat(depth)}X=1`).filter((pattern) => !pattern.startsWith("eval"));
    expect(innermost(16)).toEqual(["X=1"]);
    expect(innermost(17)).toEqual([note]);
  });
});
