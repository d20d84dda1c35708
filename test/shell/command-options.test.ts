import { describe, expect, it } from "vitest";
import { hasOption, optionValues, parseOptions } from "../../src/shell/command-options.ts";

/** getopt-style option parsing, on which finding the command a wrapper runs depends. */
describe("parseOptions", () => {
  // Strict: an option without a value has no `value` field at all, as its type says.
  it("long options: --name=value, --name value when it takes one, --name alone otherwise or at the end", () => {
    expect(
      parseOptions(["--out=a", "--out", "b", "--verbose", "x", "--out"], { value: ["out"] }),
    ).toStrictEqual({
      options: [
        { name: "out", value: "a" },
        { name: "out", value: "b" },
        { name: "verbose" },
        { name: "out" },
      ],
      operands: ["x"],
      unknown: [],
    });
  });

  it("a long option may be shortened to any start of its name that no other option shares, as getopt_long reads it", () => {
    const spec = { value: ["signal", "kill-after"], flags: ["verbose", "version"] };
    expect(parseOptions(["--sig", "KILL", "--kill=5", "--verb", "10", "rm"], spec)).toStrictEqual({
      options: [{ name: "signal", value: "KILL" }, { name: "kill-after", value: "5" }, { name: "verbose" }],
      operands: ["10", "rm"],
      unknown: [],
    });
    // A single letter is no long name: `--n` starts `no-color` alone, though `-n` takes a value.
    expect(parseOptions(["--n", "x"], { value: ["n"], flags: ["no-color"] })).toStrictEqual({
      options: [{ name: "no-color" }],
      operands: ["x"],
      unknown: [],
    });
    // `--=x` names no option, so it starts none.
    expect(parseOptions(["--=x"], { value: ["output"] }).options).toStrictEqual([{ name: "", value: "x" }]);
    // `--ver` starts two names: getopt refuses it, and so it stays unknown here.
    expect(parseOptions(["--ver", "rm"], spec)).toStrictEqual({
      options: [{ name: "ver" }],
      operands: ["rm"],
      unknown: ["--ver"],
    });
  });

  it("short options: combined flags, an attached or separate value, one at the end without a value", () => {
    expect(parseOptions(["-abofile", "-o", "g", "-vo"], { value: ["o"] })).toStrictEqual({
      options: [
        { name: "a" },
        { name: "b" },
        { name: "o", value: "file" },
        { name: "o", value: "g" },
        { name: "v" },
        { name: "o" },
      ],
      operands: [],
      unknown: [],
    });
  });

  it("an attached-only value is never the next word", () => {
    expect(parseOptions(["-i.bak", "-i", "f", "--in-place", "g"], { attached: ["i", "in-place"] })).toEqual({
      options: [{ name: "i", value: ".bak" }, { name: "i", value: "" }, { name: "in-place" }],
      operands: ["f", "g"],
      unknown: [],
    });
  });

  it("names options outside the known flags, values and attached ones — only when flags are given", () => {
    const spec = { value: ["o"], attached: ["i", "in-place"], flags: ["v", "verbose"] };
    expect(
      parseOptions(["-v", "--verbose", "-x", "--frob", "--in-place", "-o", "f", "--o", "g"], spec).unknown,
    ).toEqual(["-x", "--frob"]);
    // With its value attached too: `sed --frob=x` is no more understood than `sed --frob`.
    expect(parseOptions(["--frob=1", "--in-place=.bak", "--o=f"], spec).unknown).toEqual(["--frob=1"]);
    expect(parseOptions(["-x", "--frob"], {}).unknown).toEqual([]);
  });

  it("-- ends the options and - is an operand; operands may come between options unless the first one ends them", () => {
    expect(parseOptions(["-", "a", "-v", "--", "-w"], {})).toEqual({
      options: [{ name: "v" }],
      operands: ["-", "a", "-w"],
      unknown: [],
    });
    expect(parseOptions(["a", "-v", "b"], { stopAtOperand: true })).toEqual({
      options: [],
      operands: ["a", "-v", "b"],
      unknown: [],
    });
  });

  it("hasOption and optionValues read the options by any of their names", () => {
    const parsed = parseOptions(["-o", "a", "--output=b", "-v", "--output"], { value: ["o", "output"] });
    expect(hasOption(parsed, "v")).toBe(true);
    expect(hasOption(parsed, "x", "y")).toBe(false);
    expect(optionValues(parsed, "o", "output")).toEqual(["a", "b"]);
    expect(optionValues(parsed, "v")).toEqual([]);
  });
});
