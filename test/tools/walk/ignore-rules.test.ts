import { describe, expect, it } from "vitest";
import { createIgnoreMatcher } from "../../../src/tools/walk/ignore-rules.ts";

describe("ignore patterns, read as git reads them", () => {
  const rules = createIgnoreMatcher([
    "# build output",
    "dist/",
    "*.log",
    "!keep.log",
    "/root-only.txt",
    "docs/generated",
    "{a,b}.txt",
    "",
    "  ",
  ]);

  it("matches a slash-free pattern at any depth", () => {
    expect(rules.ignores("a.log", false)).toBe(true);
    expect(rules.ignores("deep/dir/a.log", false)).toBe(true);
  });

  it("lets a later negation re-include a path", () => {
    expect(rules.ignores("keep.log", false)).toBe(false);
    expect(rules.ignores("sub/keep.log", false)).toBe(false);
  });

  it("applies a trailing slash to directories only", () => {
    expect(rules.ignores("dist", true)).toBe(true);
    expect(rules.ignores("pkg/dist", true)).toBe(true);
    expect(rules.ignores("dist", false)).toBe(false);
  });

  it("anchors patterns that contain a slash to the base directory", () => {
    expect(rules.ignores("root-only.txt", false)).toBe(true);
    expect(rules.ignores("sub/root-only.txt", false)).toBe(false);
    expect(rules.ignores("docs/generated", true)).toBe(true);
    expect(rules.ignores("x/docs/generated", true)).toBe(false);
  });

  it("ignores comments and blank lines", () => {
    expect(rules.ignores("# build output", false)).toBe(false);
    expect(rules.ignores("src/a.ts", false)).toBe(false);
  });

  it("reads braces literally, as git does", () => {
    expect(rules.ignores("{a,b}.txt", false)).toBe(true);
    expect(rules.ignores("a.txt", false)).toBe(false);
  });
});
