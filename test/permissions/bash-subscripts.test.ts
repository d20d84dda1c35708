import { describe, expect, it } from "vitest";
import { bashPermissionPatterns, isReadOnlyBashCommand } from "../../src/permissions/bash-command.ts";

/**
 * bash evaluates a name with a subscript wherever it reads a string as a number or a variable name,
 * and runs a command inside the subscript, quotes or not: `[[ -v 'a[$(touch x)]' ]]` creates x. Each
 * case below ran its command in real bash (5.2) while the check saw only quoted text.
 */
const NOTE = "!a subscript holding a command, which bash runs when it evaluates the name";

describe("a subscript holding a command", () => {
  it.each([
    ["[[ -v ]]", "[[ -v 'a[$(touch x)]' ]]"],
    ["test -v", "test -v 'a[$(touch x)]'"],
    ["[ -v ]", "[ -v 'a[$(touch x)]' ]"],
    ["an arithmetic comparison in [[ ]]", "[[ 1 -eq 'a[$(touch x)]' ]]"],
    ["arithmetic expansion", "echo $(( 'a[`touch x`]' ))"],
    ["a for variable used in arithmetic", "for x in 'a[$(touch x)]'; do echo $((x)); done"],
  ])("in %s is not read-only, and says why", (_, command) => {
    expect(isReadOnlyBashCommand(command)).toBe(false);
    expect(bashPermissionPatterns(command)).toContain(NOTE);
  });

  it.each([
    // biome-ignore lint/suspicious/noTemplateCurlyInString: bash's ${a[1]}, not a template
    ["a subscript of digits", "echo ${a[1]}"],
    ["a command substitution outside any subscript", "echo [x] $(date +%s)"],
    ["a glob bracket", "ls src/[ab]*.ts"],
  ])("%s is no such note", (_, command) => {
    expect(bashPermissionPatterns(command)).not.toContain(NOTE);
  });
});
