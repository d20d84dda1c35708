import { describe, expect, it } from "vitest";
import { bashPermissionPatterns } from "../../src/permissions/bash-command.ts";

/**
 * Command lines as bash runs them: every simple command of a list, a pipeline, a compound command or
 * a function body is checked on its own, and every file a redirection writes, so `ls; rm a` cannot
 * pass as `ls`.
 */
const patterns = bashPermissionPatterns;

describe("lists and pipelines", () => {
  it.each([
    ["ls; rm a", ["ls", "rm a"]],
    ["ls & rm b", ["ls", "rm b"]],
    ["ls | rm c", ["ls", "rm c"]],
    ["ls || rm d", ["ls", "rm d"]],
    ["ls && rm e", ["ls", "rm e"]],
    ["ls |& rm f", ["ls", "rm f"]],
    ["ls\nrm g", ["ls", "rm g"]],
    ["ls ;; rm pp", ["ls", "rm pp"]],
    ["ls # rm h", ["ls"]],
    ["echo a#b", ["echo a#b"]],
    ["echo a # b", ["echo a"]],
    ["ls # x\nrm i", ["ls", "rm i"]],
  ])("%j runs %j", (command, expected) => {
    expect(patterns(command)).toEqual(expected);
  });
});

describe("compound commands and functions", () => {
  it.each([
    ["(rm j)", ["rm j"]],
    ["f() { rm k; }", ["rm k"]],
    ["f () { rm l; }", ["rm l"]],
    ["function g { rm -rf x; }; g", ["rm -rf x", "g"]],
    ["function g() { rm -rf x; }", ["rm -rf x"]],
    ["function g {\n rm -rf x\n}", ["rm -rf x"]],
    ["if rm u; then rm v; elif rm w; then :; else rm x; fi", ["rm u", "rm v", "rm w", ":", "rm x"]],
    ["while rm y; do :; done", ["rm y", ":"]],
    ["until rm z; do :; done", ["rm z", ":"]],
    ["! rm bb", ["rm bb"]],
    ["for i in 1; do rm cc; done", ["rm cc"]],
    ["for i in $(rm y); do :; done", ["rm y", ":"]],
    ["select i in 1; do rm dd; done", ["rm dd"]],
    ["coproc rm ff", ["rm ff"]],
    ["coproc NAME { rm gg; }", ["rm gg"]],
    ["coproc NAME ( rm hh )", ["rm hh"]],
    ["coproc 9x ( rm ii )", ["!shell syntax not understood: unexpected (", "9x", "rm ii"]],
    ["time -p rm ii", ["rm ii"]],
    ["time -- rm jj", ["rm jj"]],
    ["echo function if then", ["echo function if then"]],
  ])("%j runs %j", (command, expected) => {
    expect(patterns(command)).toEqual(expected);
  });

  it("a ( inside a word cannot be followed", () => {
    expect(patterns("echo a(b")).toEqual([
      "!shell syntax not understood: unexpected (",
      "!shell syntax not understood: missing )",
      "echo a",
      "b",
    ]);
  });
});

describe("redirections", () => {
  it.each([
    ["ls 2> m", ["ls", "> m"]],
    ["ls 2>&1", ["ls"]],
    ["ls 10> n", ["ls", "> n"]],
    ['ls "2"> o', ["ls 2", "> o"]],
    ["ls 2 > p", ["ls 2", "> p"]],
    ["ls x2> p", ["ls x2", "> p"]],
    ["ls >| q", ["ls", "> q"]],
    ["ls <> r", ["ls", "> r"]],
    ["ls &>> s", ["ls", "> s"]],
    ["ls &> t", ["ls", "> t"]],
    ["ls > /dev/null", ["ls"]],
    ["> only-a-file", ["> only-a-file"]],
    ["ls <(rm p) > out", ["ls <(rm p)", "> out", "rm p"]],
  ])("%j is %j", (command, expected) => {
    expect(patterns(command)).toEqual(expected);
  });
});

describe("here-documents", () => {
  it.each([
    ["cat <<-EOF\n\t$(rm kk)\n\tEOF\nrm ll", ["cat", "rm kk", "rm ll"]],
    ["cat <<EOF\n\tEOF\nrm no\nEOF\nrm ll", ["cat", "rm ll"]],
    ["cat <<A <<B\n$(rm mm)\nA\n$(rm nn)\nB\nrm oo", ["cat", "rm mm", "rm nn", "rm oo"]],
    ["cat <<'A'\n$(rm no)\nA\nrm pp", ["cat", "rm pp"]],
    ["cat <<EOF\n$(rm qq)", ["cat", "rm qq"]],
  ])("%j runs %j", (command, expected) => {
    expect(patterns(command)).toEqual(expected);
  });

  it.each([
    ["cat <<EOF\nE\\\nOF\nrm -rf af\nEOF", ["cat", "rm -rf af", "EOF"]],
    ["cat <<EOF\nE\\\\\nOF\nrm no\nEOF", ["cat"]],
    ["cat <<'EOF'\nE\\\nOF\nrm no\nEOF", ["cat"]],
    ["cat <<EOF\n$\\\n(rm ag)\nEOF", ["cat", "rm ag"]],
  ])(
    "an unquoted body joins a line ending in an unescaped \\ to the next, as bash does: %j runs %j",
    (command, expected) => {
      expect(patterns(command)).toEqual(expected);
    },
  );

  it("a substitution that spans lines of a body is followed to its end, and what follows it on that line", () => {
    expect(patterns("cat <<EOF\n$(echo a\n)$(rm ah)\nEOF")).toEqual(["cat", "echo a", "rm ah"]);
  });
});

describe("nesting", () => {
  it("a command nested deeper than it follows is refused, not passed", () => {
    const deep = `${"$(".repeat(40)}rm x${")".repeat(40)}`;
    expect(patterns(`echo ${deep}`).some((pattern) => pattern.startsWith("!"))).toBe(true);
    const backquotes = "echo `echo \\`echo \\\\\\`rm y\\\\\\`\\``";
    expect(patterns(backquotes)).toContain("rm y");
  });

  it("here-documents nested in the substitutions of here-documents count towards the same limit", () => {
    let nested = "rm x";
    for (let level = 0; level < 40; level++) nested = `cat <<A\n$(${nested}\n)\nA`;
    expect(patterns(nested)).toContain("!shell syntax not understood: nesting too deep");
  });
});
