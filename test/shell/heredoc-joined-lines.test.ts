import { describe, expect, it } from "vitest";
import { bashPermissionPatterns } from "../../src/permissions/bash-command.ts";

/**
 * In an unquoted here-document bash joins a line ending in `\` to the next before it looks for the
 * delimiter or expands the body; the `\` alone goes. Each case was run through bash 5.2.
 */
describe("here-document lines joined at a trailing backslash", () => {
  it.each([
    [
      "a delimiter split after two letters ends the body",
      "cat <<EOF\nEO\\\nF\nrm -rf af\nEOF",
      ["cat", "rm -rf af", "EOF"],
    ],
    ["a substitution split after its $ runs", "cat <<EOF\nx$\\\n(rm ag)\nEOF", ["cat", "rm ag"]],
  ])("%s", (_, command, expected) => {
    expect(bashPermissionPatterns(command)).toEqual(expected);
  });
});
