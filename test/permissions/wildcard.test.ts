import { once } from "node:events";
import { Worker } from "node:worker_threads";
import { describe, expect, it } from "vitest";
import { wildcardMatch } from "../../src/permissions/wildcard.ts";
import { scaled } from "../support/time-scale.ts";

const WILDCARD = new URL("../../src/permissions/wildcard.ts", import.meta.url).href;

/** The value of `expression` (over `wildcardMatch`) computed in a worker thread, ended at the hang guard. */
async function inWorker(expression: string): Promise<unknown> {
  const worker = new Worker(
    `import { wildcardMatch } from ${JSON.stringify(WILDCARD)};
     import { parentPort } from "node:worker_threads";
     parentPort.postMessage(${expression});`,
    { eval: true },
  );
  const guard = setTimeout(() => void worker.terminate(), scaled(10_000));
  try {
    const [value] = await Promise.race([
      once(worker, "message"),
      once(worker, "exit").then(() => {
        throw new Error(`timed out after ${scaled(10_000)} ms: the match did not end`);
      }),
    ]);
    return value;
  } finally {
    clearTimeout(guard);
    await worker.terminate();
  }
}

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
    // The pattern used up before the value: the * takes one more character and tries again.
    expect(wildcardMatch("a*b", "abxb")).toBe(true);
    expect(wildcardMatch("rm *.env", "rm a.env b.env")).toBe(true);
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

  it("ends on long values with many stars", async () => {
    // Backtracking over 5,000 characters and seven stars would take hours; a linear match, milliseconds.
    // In a worker, so the hang guard can stop a match that never ends (it would block this thread).
    const matched = await inWorker(`wildcardMatch("*a*a*a*a*a*a*c", "a".repeat(5000) + "b")`);
    expect(matched).toBe(false);
  });
});
