// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the shell text of ${…} expansions, not templates
import { describe, expect, it } from "vitest";
import { bashPermissionPatterns } from "../../src/permissions/bash-command.ts";
import { parseShell } from "../../src/shell/scanner.ts";

/**
 * Words as bash reads them, quotes and escapes undone, and every command that runs inside a word
 * (`$(…)`, backquotes, `<(…)`, `${x:-$(…)}`, an unquoted here-document) found: a rule sees the text
 * the command will get and each command that will run.
 */
const patterns = bashPermissionPatterns;

describe("quotes and escapes", () => {
  it.each([
    ["echo a\\ b", ["echo a b"]],
    ["echo a\\\nb", ["echo ab"]],
    ["echo a\\\n b", ["echo a b"]],
    ['echo \\"x', ['echo "x']],
    ["echo 'a\"b'", ['echo a"b']],
    ['echo "a\\"b"', ['echo a"b']],
    ['echo "a\\$b\\`c\\"d\\\\e\\\nf\\g"', ['echo a$b`c"d\\ef\\g']],
    ['echo "\\x"', ["echo \\x"]],
    ['echo "a\nb"', ["echo a\nb"]],
    ["echo a$", ["echo a$"]],
    ["echo $a$b", ["echo $a$b"]],
    ["echo \\", ["echo "]],
    ["ls\t-la", ["ls -la"]],
    ["echo $'a\\'b' ;rm x", ["echo a'b", "rm x"]],
  ])("%j is %j", (command, expected) => {
    expect(patterns(command)).toEqual(expected);
  });

  it("a quoted or escaped NAME=value is a word, not an assignment", () => {
    expect(patterns("X=1 ls")).toEqual(["ls", "X=1"]);
    for (const command of ['"X=1" ls', "\\X=1 ls", "$'X=1' ls", '$"X=1" ls', "'X'=1 ls"])
      expect(patterns(command), command).toEqual(["X=1 ls"]);
  });

  it.each([
    ["\\for x in y", ["for x in y"]],
    ["'for' x in y", ["for x in y"]],
    ["$'for' x in y", ["for x in y"]],
    ['$"for" x in y', ["for x in y"]],
  ])("a quoted or escaped keyword is a command's name: %j runs %j", (command, expected) => {
    expect(patterns(command)).toEqual(expected);
  });

  it("an unquoted here-document delimiter with a $ in it still lets its body run substitutions", () => {
    expect(patterns("cat <<$E\n$(rm x)\n$E")).toEqual(["cat", "rm x"]);
  });

  it("each problem is reported once, however often it occurs", () => {
    expect(parseShell("echo $(a $(b").problems).toEqual(["missing )"]);
  });

  it.each([
    ['echo "unterminated', ['!shell syntax not understood: unterminated " quote', "echo unterminated"]],
    ["echo 'x", ["!shell syntax not understood: unterminated ' quote", "echo x"]],
    ["echo $'x", ["!shell syntax not understood: unterminated $' quote", "echo x"]],
    ["echo ${a", ["!shell syntax not understood: missing }", "echo ${a"]],
    ["echo `echo 'x`", ["!shell syntax not understood: unterminated ' quote", "echo `echo 'x`", "echo x"]],
  ])("%j cannot be read, and says why", (command, expected) => {
    expect(patterns(command)).toEqual(expected);
  });
});

describe("commands inside words", () => {
  it.each([
    ['echo "$(rm x)"', ["echo $(rm x)", "rm x"]],
    ['echo "`rm y`"', ["echo `rm y`", "rm y"]],
    ["echo `rm a", ["!shell syntax not understood: unterminated ` quote", "echo `rm a", "rm a"]],
    ["echo `echo \\`rm b\\``", ["echo `echo \\`rm b\\``", "echo `rm b`", "rm b"]],
    ["echo `echo \\$x \\\\\\\\`", ["echo `echo \\$x \\\\\\\\`", "echo $x \\"]],
    ['echo "`echo \\"q\\"`"', ['echo `echo \\"q\\"`', 'echo "q"']],
    ["cat <(rm p)", ["cat <(rm p)", "rm p"]],
    ["cat >(rm q)", ["cat >(rm q)", "rm q"]],
    ["x<(rm r)", ["x <(rm r)", "rm r"]],
    ["echo $( (rm s) )", ["echo $( (rm s) )", "rm s"]],
    ["echo ${x:-$(rm z)}", ["echo ${x:-$(rm z)}", "rm z"]],
    ["echo ${x:-`rm v`}", ["echo ${x:-`rm v`}", "rm v"]],
    ['echo ${x:-"$(rm u)"}', ['echo ${x:-"$(rm u)"}', "rm u"]],
    ["echo ${x:-'$(rm no)'}", ["echo ${x:-'$(rm no)'}"]],
    ["echo ${x:-\\}}", ["echo ${x:-\\}}"]],
    ["echo ${x:-\\$(rm no)}", ["echo ${x:-\\$(rm no)}"]],
    ['echo ${x:-"}"a} ;rm ab', ['echo ${x:-"}"a}', "rm ab"]],
    ["echo $x(rm y)", ["!shell syntax not understood: unexpected (", "echo $x", "rm y"]],
    ["echo ${x:-{a} ;rm -rf z}", ["echo ${x:-{a}", "rm -rf z}"]],
    ['echo "${x:-{a} ;rm -rf z}"', ["echo ${x:-{a} ;rm -rf z}"]],
    ["echo ${x:-${y:-a}b} ;rm -rf y", ["echo ${x:-${y:-a}b}", "rm -rf y"]],
    ["echo $(( $(rm w) ))", ["echo $(( $(rm w) ))", "rm w"]],
    ["cat <<EOF\n$(rm h)\n\\$(rm no)\n`rm t`\nEOF", ["cat", "rm h", "rm t"]],
    ["cat <<'EOF'\n$(rm h)\nEOF", ["cat"]],
  ])("%j runs %j", (command, expected) => {
    expect(patterns(command)).toEqual(expected);
  });

  it("$((…)) is arithmetic only when it closes with )): bash runs $((rm x) ) as a command", () => {
    expect(patterns("echo $((1+2))")).toEqual(["echo $((1+2))"]);
    expect(patterns("echo $(( (1+2) * 3 ))")).toEqual(["echo $(( (1+2) * 3 ))"]);
    expect(patterns("ls $((rm -rf x) )")).toEqual(["ls $((rm -rf x) )", "rm -rf x"]);
    expect(patterns('echo "$((rm z) )"')).toEqual(["echo $((rm z) )", "rm z"]);
  });
});
