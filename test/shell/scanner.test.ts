import { describe, expect, it } from "vitest";
import { bashPermissionPatterns } from "../../src/permissions/bash-command.ts";
import { parseShell } from "../../src/shell/scanner.ts";

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

  it.each([
    ["ls &&>(rm q)", ["ls", ">(rm q)", "rm q"]],
    ["ls |&>(rm r)", ["ls", ">(rm r)", "rm r"]],
  ])("an operator is read before the &> it overlaps, as bash does: %j runs %j", (command, expected) => {
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
    ["f ( ) { rm l; }", ["rm l"]],
    ["coproc a-b ( rm ii )", ["!shell syntax not understood: unexpected (", "a-b", "rm ii"]],
    ["rm { x; }", ["rm { x"]],
    ["-- rm kk", ["-- rm kk"]],
    ["X=1 for a in b", ["for a in b", "X=1"]],
    ["X=1 if rm ll", ["if rm ll", "X=1"]],
  ])("%j runs %j", (command, expected) => {
    expect(patterns(command)).toEqual(expected);
  });

  // A loop variable is assigned each word in turn: `for PATH in ./bin; do cat x; done` runs ./bin/cat.
  // A lowercase one is the loop's own (nothing else reads it), but for the *_proxy family.
  it.each([
    ["for PATH in ./bin; do cat x; done", ["PATH=./bin", "cat x"]],
    ["for IFS in a 'b c'; do read x; done", ["IFS=a", "IFS=b c", "read x"]],
    ["select PATH in ./bin; do cat x; done", ["PATH=./bin", "cat x"]],
    ["for HOME; do git status; done", ["HOME=$@", "git status"]],
    ["for http_proxy in x:1; do curl y; done", ["http_proxy=x:1", "curl y"]],
    ["for f in a.md 'b c.md'; do wc $f; done", ["wc $f"]],
    ["for PATH in; do :; done", [":"]],
    // `for NAME do` needs no `;`: the body starts on the same line (bash runs it once per argument).
    ["for f do rm -rf x; done", ["rm -rf x"]],
    ["set -- 1; for f do rm -rf x; done", ["set -- 1", "rm -rf x"]],
    ["select f do rm -rf x; done", ["rm -rf x"]],
    ["for PATH do cat x; done", ["PATH=$@", "cat x"]],
    ["for f do for g do rm y; done; done", ["rm y"]],
    ["for f in a do; do rm x; done", ["rm x"]],
    // What follows `do` at once is the body's, a redirection too; `do` elsewhere is a word.
    ["for f do>out rm -rf x; done", ["rm -rf x", "> out"]],
    ["for f do<in rm -rf x; done", ["rm -rf x"]],
    ["echo a do rm x", ["echo a do rm x"]],
    ["for PATH in a do b; do :; done", ["PATH=a", "PATH=do", "PATH=b", ":"]],
    // Only an all-lowercase name is the loop's own; a bad name is a syntax error bash refuses.
    ["for Path in ./bin; do cat x; done", ["Path=./bin", "cat x"]],
    ["for my_PATH in ./bin; do cat x; done", ["my_PATH=./bin", "cat x"]],
    ["for file in *.md; do wc $file; done", ["wc $file"]],
    ["case X in a) rm y;; esac", ["!shell syntax not understood: unexpected )", "rm y"]],
    // Headers bash refuses (no name, not a name, no `in`) assign nothing, and do not stop the reading.
    ["for; do rm x; done", ["rm x"]],
    ["for PATH-x in ./bin; do cat x; done", ["cat x"]],
    ["for 1PATH in ./bin; do cat x; done", ["cat x"]],
    ["for PATH 'in' ./bin; do cat x; done", ["cat x"]],
    ["for PATH of ./bin; do cat x; done", ["cat x"]],
    ["for 'PATH' in a; do :; done", [":"]],
  ])("%j is read as %j", (command, expected) => {
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
    ["cat < <(rm s)", ["cat", "rm s"]],
    ["cat 3< in", ["cat"]],
    ["ls 2x> p", ["ls 2x", "> p"]],
    ["rm &>/dev/null -rf x", ["rm -rf x"]],
  ])("%j is %j", (command, expected) => {
    expect(patterns(command)).toEqual(expected);
  });

  it.each([
    ["ls >", ["!shell syntax not understood: missing target after >", "ls"]],
    ["ls > ; rm t", ["!shell syntax not understood: missing target after >", "ls", "rm t"]],
    ["ls > <x", ["!shell syntax not understood: missing target after >", "ls"]],
    ["ls > |(rm u)", ["!shell syntax not understood: missing target after >", "ls", "rm u"]],
  ])("a redirection without its file cannot be read: %j is %j", (command, expected) => {
    expect(patterns(command)).toEqual(expected);
  });

  it("a redirection keeps the descriptor it names", () => {
    const word = (text: string) => ({ text, quoted: false });
    expect(parseShell("ls 2>err 1>&2 >out").commands[0]?.redirects).toStrictEqual([
      { op: ">", fd: "2", target: word("err") },
      { op: ">&", fd: "1", target: word("2") },
      { op: ">", target: word("out") },
    ]);
  });
});

describe("here-documents", () => {
  it.each([
    ["cat <<-EOF\n\t$(rm kk)\n\tEOF\nrm ll", ["cat", "rm kk", "rm ll"]],
    ["cat <<EOF\n\tEOF\nrm no\nEOF\nrm ll", ["cat", "rm ll"]],
    ["cat <<A <<B\n$(rm mm)\nA\n$(rm nn)\nB\nrm oo", ["cat", "rm mm", "rm nn", "rm oo"]],
    ["cat <<'A'\n$(rm no)\nA\nrm pp", ["cat", "rm pp"]],
    ["cat <<EOF\n$(rm qq)", ["cat", "rm qq"]],
    ["cat <<EOF\nx\nEOF\nls\nrm ab", ["cat", "ls", "rm ab"]],
    ["cat <<EOF && rm ac\nbody\nEOF", ["cat", "rm ac"]],
    ["cat <<-EOF\n\t\t$(rm ad)\n\t\tEOF\nrm ae", ["cat", "rm ad", "rm ae"]],
    ["cat <<-EOF\nE\tOF\nrm no\nEOF", ["cat"]],
    ["cat <<EOF\n\nEOF\nrm am", ["cat", "rm am"]],
    ["cat <<EOF\n$(ls\nrm ai)\nEOF", ["cat", "ls", "rm ai"]],
    ["cat <<EOF\na `\nEOF", ["!shell syntax not understood: unterminated ` quote", "cat"]],
  ])("%j runs %j", (command, expected) => {
    expect(patterns(command)).toEqual(expected);
  });

  it.each([
    ["cat <<EOF\nE\\\nOF\nrm -rf af\nEOF", ["cat", "rm -rf af", "EOF"]],
    ["cat <<EOF\nE\\\\\nOF\nrm no\nEOF", ["cat"]],
    ["cat <<'EOF'\nE\\\nOF\nrm no\nEOF", ["cat"]],
    ["cat <<EOF\n$\\\n(rm ag)\nEOF", ["cat", "rm ag"]],
    ["cat <<EOF\na\\b\nEOF\nrm aj", ["cat", "rm aj"]],
    ["cat <<EOF\n$(rm ak)\\\\\n$(rm al)\nEOF", ["cat", "rm ak", "rm al"]],
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

describe("the commands found", () => {
  it("separators, comments and keywords leave no empty command behind", () => {
    expect(parseShell("ls;; & # c\nif :; then\n fi").commands.map((command) => command.words.length)).toEqual(
      [1, 1],
    );
  });
});

describe("nesting", () => {
  const nested = (levels: number, inner: string) =>
    `echo ${"$(".repeat(levels)}${inner}${")".repeat(levels)}`;

  const refused = (command: string) =>
    patterns(command).includes("!shell syntax not understood: nesting too deep");

  it("31 nested substitutions are followed, 32 are refused", () => {
    expect(patterns(nested(31, "rm x"))).toContain("rm x");
    expect(refused(nested(31, "rm x"))).toBe(false);
    expect(refused(nested(32, "rm x"))).toBe(true);
  });

  it("an empty subshell is a level too", () => {
    expect(refused(nested(31, " ( )"))).toBe(true);
  });

  it("substitutions side by side do not add up", () => {
    expect(refused(`echo ${"$(rm x) ".repeat(40)}`)).toBe(false);
  });

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
