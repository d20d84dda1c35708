import { describe, expect, it } from "vitest";
import { globToRegExp } from "../../../src/tools/walk/glob-pattern.ts";

const matches = (glob: string, path: string) => globToRegExp(glob).test(path);

describe("globToRegExp", () => {
  it("keeps * and ? within one path segment, dotfiles included", () => {
    expect(matches("*.ts", "a.ts")).toBe(true);
    expect(matches("*.ts", ".eslintrc.ts")).toBe(true);
    expect(matches("*.ts", "src/a.ts")).toBe(false);
    expect(matches("a?.md", "ab.md")).toBe(true);
    expect(matches("a?.md", "a/.md")).toBe(false);
  });

  it("lets ** span any number of segments, including none", () => {
    expect(matches("**/*.ts", "a.ts")).toBe(true);
    expect(matches("**/*.ts", "x/y/z.ts")).toBe(true);
    expect(matches("src/**/test/*.ts", "src/test/a.ts")).toBe(true);
    expect(matches("src/**/test/*.ts", "src/a/b/test/a.ts")).toBe(true);
    expect(matches("src/**", "src/a/b")).toBe(true);
    expect(matches("src/**", "srcx/a")).toBe(false);
  });

  it("supports braces, classes and escapes, and treats regex characters literally", () => {
    expect(matches("*.{ts,tsx}", "a.tsx")).toBe(true);
    expect(matches("*.{ts,tsx}", "a.js")).toBe(false);
    expect(matches("{src,lib/**}/*.js", "lib/x/y.js")).toBe(true);
    expect(matches("file[0-9].txt", "file7.txt")).toBe(true);
    expect(matches("file[!0-9].txt", "file7.txt")).toBe(false);
    expect(matches("\\*.txt", "*.txt")).toBe(true);
    expect(matches("\\*.txt", "a.txt")).toBe(false);
    expect(matches("a+(b).txt", "a+(b).txt")).toBe(true);
    expect(matches("a.txt", "aXtxt")).toBe(false);
  });

  it("never crosses a / except with a whole-segment **", () => {
    expect(matches("a[!x]b", "a/b")).toBe(false);
    expect(matches("a[!x]b", "acb")).toBe(true);
    expect(matches("a[!-0]b", "a/b")).toBe(false);
    expect(matches("a[!a-]b", "a/b")).toBe(false);
    expect(matches("a[!a-]b", "a-b")).toBe(false);
    expect(matches("a[.-0]b", "a/b")).toBe(false);
    expect(matches("a[.-0]b", "a.b")).toBe(true);
    expect(matches("a**b", "a/b")).toBe(false);
    expect(matches("a**b", "a/x/b")).toBe(false);
    expect(matches("a**b", "axxb")).toBe(true);
    expect(matches("**.ts", "src/a.ts")).toBe(false);
    expect(matches("src/***/a.ts", "src/x/y/a.ts")).toBe(true);
  });

  it("treats an unclosed [ or { literally", () => {
    expect(matches("a[b", "a[b")).toBe(true);
    expect(matches("a{b", "a{b")).toBe(true);
  });
});
