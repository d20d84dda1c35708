import { describe, expect, it } from "vitest";
import { wildcardMatch } from "../../src/permissions/wildcard.ts";

describe("wildcardMatch", () => {
  it("matches literally without wildcards, case-sensitively", () => {
    expect(wildcardMatch("git status", "git status")).toBe(true);
    expect(wildcardMatch("git status", "git statu")).toBe(false);
    expect(wildcardMatch("git status", "Git status")).toBe(false);
  });

  it("treats * as any run of characters, including none and slashes", () => {
    expect(wildcardMatch("*", "")).toBe(true);
    expect(wildcardMatch("*", "anything at all")).toBe(true);
    expect(wildcardMatch("src/*", "src/a/b/c.ts")).toBe(true);
    expect(wildcardMatch("src/**", "src/a/b/c.ts")).toBe(true);
    expect(wildcardMatch("*.ts", "src/a.ts")).toBe(true);
    expect(wildcardMatch("*.ts", "src/a.tsx")).toBe(false);
    expect(wildcardMatch("a*b*c", "a--b--c")).toBe(true);
    expect(wildcardMatch("a*b*c", "a--c--b")).toBe(false);
  });

  it("treats ? as exactly one character", () => {
    expect(wildcardMatch("ls -?", "ls -l")).toBe(true);
    expect(wildcardMatch("ls -?", "ls -")).toBe(false);
    expect(wildcardMatch("ls -?", "ls -la")).toBe(false);
  });

  it("lets a trailing ' *' also match the bare command, but not a longer word", () => {
    expect(wildcardMatch("git status *", "git status")).toBe(true);
    expect(wildcardMatch("git status *", "git status --short")).toBe(true);
    expect(wildcardMatch("git status *", "git statusx")).toBe(false);
    expect(wildcardMatch("ls *", "lsblk")).toBe(false);
  });

  it("treats regex metacharacters literally", () => {
    expect(wildcardMatch("a.b", "axb")).toBe(false);
    expect(wildcardMatch("[ *", "[ -f x ]")).toBe(true);
    expect(wildcardMatch("(x)+", "(x)+")).toBe(true);
  });

  it("stays fast on long values with many stars", () => {
    const value = `${"a".repeat(5000)}b`;
    // Backtracking over 5,000 characters and seven stars would take hours; a linear match, milliseconds.
    const FAST_ENOUGH_MS = 2_000;
    const started = performance.now();
    expect(wildcardMatch("*a*a*a*a*a*a*c", value)).toBe(false);
    expect(performance.now() - started).toBeLessThan(FAST_ENOUGH_MS);
  });
});
