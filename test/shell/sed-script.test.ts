import { describe, expect, it } from "vitest";
import { sedEffects, sedScriptEffects } from "../../src/shell/sed-script.ts";

/**
 * What a `sed` command does besides printing, as the permission check sees it: `> file` for each file
 * it writes, `!…` for what runs commands or cannot be inspected. `sed -n 5p f` only reads; `sed -i`,
 * `w file` and `s///w file` write; `e` and `s///e` run commands.
 */
const sed = (...args: string[]) => sedEffects(args);

describe("sed's options", () => {
  it("-i and --in-place write each file operand, with or without a backup suffix", () => {
    expect(sed("-i", "s/a/b/", "f", "g")).toEqual(["> f", "> g"]);
    expect(sed("-i.bak", "s/a/b/", "f")).toEqual(["> f"]);
    expect(sed("--in-place=.bak", "s/a/b/", "f")).toEqual(["> f"]);
    expect(sed("--in-place", "-e", "p", "f")).toEqual(["> f"]);
    expect(sed("-i", "s/a/b/")).toEqual(["!sed -i edits files in place"]);
  });

  it("scripts come from -e/--expression (every operand is then a file) or the first operand", () => {
    expect(sed("-n", "5p", "w")).toEqual([]);
    expect(sed("-e", "p", "-e", "w out", "in")).toEqual(["> out"]);
    expect(sed("--expression=w out", "in")).toEqual(["> out"]);
    expect(sed("--expression", "w out", "in")).toEqual(["> out"]);
    expect(sed("-e", "p", "w out")).toEqual([]);
  });

  it("a script file cannot be inspected", () => {
    expect(sed("-f", "script.sed", "in")).toEqual(["!sed script file is not inspected"]);
    expect(sed("--file=script.sed", "in")).toEqual(["!sed script file is not inspected"]);
    expect(sed("-i", "--file", "script.sed", "in")).toEqual(["!sed script file is not inspected", "> in"]);
    expect(sed("-f", "script.sed", "w out")).toEqual(["!sed script file is not inspected"]);
    expect(sed("--file=script.sed", "w out")).toEqual(["!sed script file is not inspected"]);
  });

  it("knows the options that only change how it reads and prints", () => {
    for (const flag of ["-n", "-E", "-r", "-s", "-u", "-z", "-nE"])
      expect(sed(flag, "p", "f"), flag).toEqual([]);
    for (const flag of [
      "--quiet",
      "--silent",
      "--regexp-extended",
      "--separate",
      "--unbuffered",
      "--null-data",
      "--zero-terminated",
      "--posix",
      "--debug",
      "--sandbox",
      "--follow-symlinks",
      "--help",
      "--version",
    ])
      expect(sed(flag, "p", "f"), flag).toEqual([]);
    expect(sed("-l", "80", "l", "f")).toEqual([]);
    expect(sed("--line-length=80", "l", "f")).toEqual([]);
    expect(sed("--line-length", "80", "l", "f")).toEqual([]);
  });

  it("names an option it does not know", () => {
    expect(sed("-X", "p", "f")).toEqual(["!sed option -X is not understood"]);
    expect(sed("--frobnicate", "p", "f")).toEqual(["!sed option --frobnicate is not understood"]);
  });
});

describe("sed's script commands", () => {
  it.each([
    ["p", []],
    [" \t;; p ;", []],
    ["=;d;D;g;G;h;H;l;n;N;p;P;x;z;F;q;Q;L;v;{p}", []],
    ["l 5;q 3", []],
    ["y/abc/xyz/", []],
    ["s/a/b/g3p", []],
    ["r file", []],
    ["R file", []],
    ["a text that says w out", []],
    ["i\\\n  w not a command", []],
    ["c changed; w not a command", []],
    ["# w not a command", []],
    [":w", []],
    ["b w", []],
    ["t w\np", []],
    ["T w;p", []],
    ["1", []],
    ["/x/", []],
  ])("%j only prints", (script, effects) => {
    expect(sedScriptEffects(script)).toEqual(effects);
  });

  it.each([
    ["w out", ["> out"]],
    ["W out", ["> out"]],
    ["1w out", ["> out"]],
    ["$w out", ["> out"]],
    ["10,20w out", ["> out"]],
    ["1,+2w out", ["> out"]],
    ["0~2w out", ["> out"]],
    ["2,~4w out", ["> out"]],
    ["1,/x/w out", ["> out"]],
    ["/x/w out", ["> out"]],
    ["/x/IMw out", ["> out"]],
    ["\\%x%w out", ["> out"]],
    ["/a\\/b/w out", ["> out"]],
    ["/x/ ! w out", ["> out"]],
    ["p;w a\nw b", ["> a", "> b"]],
    ["b end; w out", ["> out"]],
    ["r file\nw out", ["> out"]],
    ["a text\nw out", ["> out"]],
    ["s/a/b/w out", ["> out"]],
    ["s/a/b/gw out", ["> out"]],
    ["s|a|b|w out", ["> out"]],
    ["s/a\\/b/c/w out", ["> out"]],
  ])("%j writes a file", (script, effects) => {
    expect(sedScriptEffects(script)).toEqual(effects);
  });

  it.each([
    ["e", ["!sed e command runs a shell command"]],
    ["e w out", ["!sed e command runs a shell command"]],
    ["1e rm -rf x\nw out", ["!sed e command runs a shell command", "> out"]],
    ["s/x/rm -rf y/e", ["!sed s///e runs the pattern space as a command"]],
    ["s/a/b/ew out", ["!sed s///e runs the pattern space as a command", "> out"]],
  ])("%j runs a command", (script, effects) => {
    expect(sedScriptEffects(script)).toEqual(effects);
  });

  it.each([
    ["s/a/b", ["!sed script is not understood"]],
    ["y/ab/", ["!sed script is not understood"]],
    ["w a\ns/x", ["> a", "!sed script is not understood"]],
    ["k", ["!sed command 'k' is not understood"]],
    ["p;k;w out", ["!sed command 'k' is not understood"]],
  ])("%j cannot be read", (script, effects) => {
    expect(sedScriptEffects(script)).toEqual(effects);
  });
});
