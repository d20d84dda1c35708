import { describe, expect, it } from "vitest";
import { bashPermissionPatterns } from "../../src/permissions/bash-command.ts";
import { decodeAnsiC } from "../../src/shell/ansi-c-quote.ts";

/** `$'…'` words as bash decodes them, so a rule sees the command that will run (`$'\x72m'` is `rm`). */
describe("decodeAnsiC", () => {
  it.each([
    ["\\x72m", "rm"],
    ["\\x7", "\x07"],
    ["\\x726", "r6"],
    ["\\u0072m", "rm"],
    ["\\u72", "r"],
    ["\\u00e9t\\u00e9", "été"],
    ["\\U00000072m", "rm"],
    ["\\U0001F600", "😀"],
    ["\\U00110000", "\ufffd"],
    ["\\U0010FFFF", "\u{10ffff}"],
    ["\\162m", "rm"],
    ["\\0", "\0"],
    ["\\1622", "r2"],
    ["\\cA\\c@", "\x01\0"],
    ["\\a\\b\\e\\E\\f\\n\\r\\t\\v", "\x07\b\x1b\x1b\f\n\r\t\v"],
    ["\\\\ \\' \\\" \\?", "\\ ' \" ?"],
    ["\\q\\z", "\\q\\z"],
    ["plain", "plain"],
  ])("%j is %j", (body, decoded) => {
    expect(decodeAnsiC(body)).toBe(decoded);
  });

  it("a command spelt with escapes is checked as the command it is", () => {
    expect(bashPermissionPatterns("$'\\x72\\x6d' -rf x")).toContain("rm -rf x");
  });
});
