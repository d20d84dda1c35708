import { execFileSync } from "node:child_process";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DEFAULT_RULES } from "../../src/permissions/defaults.ts";
import type { Ruleset } from "../../src/permissions/types.ts";
import { MAX_HIDDEN_FILES, UnreadableFileFinder } from "../../src/sandbox/unreadable-files.ts";
import { tempDir } from "../support/temp-dir.ts";

const readRules = DEFAULT_RULES.filter((rule) => rule.permission === "read");

async function files(root: string, paths: string[]): Promise<void> {
  for (const path of paths) {
    await mkdir(join(root, path, ".."), { recursive: true });
    await writeFile(join(root, path), "x");
  }
}

describe("the workspace files a command must not read", () => {
  it("are those the read rules do not allow outright, at any depth; node_modules and .git are not walked", async () => {
    const ws = await tempDir("agentry-unreadable-");
    await files(ws, [
      ".env",
      ".env.example",
      "src/a.ts",
      "config/.env.local",
      "deploy/prod/.env",
      "deploy/prod/app.env",
      "node_modules/pkg/.env",
      ".git/.env",
    ]);

    const found = await new UnreadableFileFinder().find(ws, readRules);

    expect(found.kind === "files" && [...found.paths].sort()).toEqual([
      ".env",
      "config/.env.local",
      "deploy/prod/.env",
      "deploy/prod/app.env",
    ]);
  });

  it("are none when no read rule keeps anything back, without looking at the workspace", async () => {
    const gone = join(await tempDir("agentry-unreadable-"), "gone");
    const finder = new UnreadableFileFinder();
    expect(await finder.find(gone, [{ permission: "read", pattern: "*", action: "allow" }])).toEqual({
      kind: "files",
      paths: [],
    });
    await expect(finder.find(gone, readRules)).rejects.toThrow(/ENOENT/);
  });

  it(`are all of the workspace when the rules keep back more than ${MAX_HIDDEN_FILES} files`, async () => {
    const ws = await tempDir("agentry-unreadable-");
    const rules: Ruleset = [...readRules, { permission: "read", pattern: "secrets/*", action: "deny" }];
    await mkdir(join(ws, "secrets"));
    for (let index = 0; index < MAX_HIDDEN_FILES; index++)
      await writeFile(join(ws, "secrets", `${index}`), "");

    const atLimit = await new UnreadableFileFinder().find(ws, rules);
    expect(atLimit.kind === "files" && atLimit.paths.length).toBe(MAX_HIDDEN_FILES);

    await writeFile(join(ws, "secrets", "one-more"), "");
    expect(await new UnreadableFileFinder().find(ws, rules)).toEqual({
      kind: "everything",
      reason: `the read rules keep back more than ${MAX_HIDDEN_FILES} files`,
    });
  });

  it("are all of the workspace when it has more entries than a walk may check; node_modules and .git count as one", async () => {
    const ws = await tempDir("agentry-unreadable-");
    // Six entries: .env, src, src/a.ts, src/b.ts, node_modules and .git (their files are not walked).
    const skipped = Array.from({ length: 20 }, (_, i) => [`node_modules/${i}`, `.git/${i}`]).flat();
    await files(ws, [".env", "src/a.ts", "src/b.ts", ...skipped]);

    const atLimit = await new UnreadableFileFinder(6).find(ws, readRules);
    expect(atLimit).toEqual({ kind: "files", paths: [".env"] });

    await files(ws, ["src/c.ts"]);
    expect(await new UnreadableFileFinder(6).find(ws, readRules)).toEqual({
      kind: "everything",
      reason: "more than 6 files to check",
    });
  });

  it("are looked for again after 3 s, or at once for other rules; within 3 s one walk answers", async () => {
    const ws = await tempDir("agentry-unreadable-");
    await files(ws, [".env"]);
    const finder = new UnreadableFileFinder();
    const paths = async (rules: Ruleset, now: number) => {
      const found = await finder.find(ws, rules, now);
      return found.kind === "files" ? [...found.paths].sort() : found.reason;
    };

    expect(await paths(readRules, 1_000)).toEqual([".env"]);
    await files(ws, ["b/.env"]);
    expect(await paths(readRules, 3_999)).toEqual([".env"]);
    const stricter: Ruleset = [...readRules, { permission: "read", pattern: "notes.md", action: "ask" }];
    await files(ws, ["notes.md"]);
    expect(await paths(stricter, 3_999)).toEqual([".env", "b/.env", "notes.md"]);
    expect(await paths(readRules, 4_000)).toEqual([".env", "b/.env"]);
  });

  it("are all of the workspace when a folder in it cannot be listed", async () => {
    const ws = await tempDir("agentry-unreadable-");
    await files(ws, [".env"]);
    // A folder deeper than the longest path the system takes cannot be listed by its path (EACCES does
    // the same for a user, but these tests may run as root). Grown from the top by renames, whose paths
    // stay short; removed by rm, which walks it relative to each folder.
    const name = "d".repeat(250);
    const deep = `mkdir t && for i in $(seq 20); do mkdir n && mv t n/${name} && mv n t || exit 1; done && mv t ${name}`;
    execFileSync("sh", ["-c", deep], { cwd: ws });
    try {
      const found = await new UnreadableFileFinder().find(ws, readRules);
      expect(found.kind).toBe("everything");
      expect(found.kind === "everything" && found.reason).toMatch(/^cannot list d+(\/d+)* \(ENAMETOOLONG/);
    } finally {
      execFileSync("rm", ["-rf", join(ws, name)]);
    }
  });
});
