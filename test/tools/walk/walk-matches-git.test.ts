import { execFileSync } from "node:child_process";
import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { globTool } from "../../../src/tools/glob/glob.ts";
import { grepTool } from "../../../src/tools/grep/grep.ts";
import { listTool } from "../../../src/tools/list/list.ts";
import { describeWith, RIPGREP } from "../../support/components.ts";
import { tempDir } from "../../support/temp-dir.ts";
import { type GrepEngine, opsFor } from "../grep/grep-engines.ts";
import { makeContext, runTool } from "../tool-context.ts";

/**
 * One repository with every kind of ignore rule git knows; grep (both engines), glob and list must
 * see exactly the files `git ls-files --others --cached --exclude-standard` lists, less the folders
 * every file tool skips (.git, node_modules, .agentry). Each file holds "needle".
 */
const FILES: Record<string, string> = {
  ".gitignore": [
    "*.log",
    "!important.log",
    "/build/",
    "{a,b}.txt",
    "docs/*.tmp",
    "cache/",
    "# a comment",
  ].join("\n"),
  ".ignore": "kept-by-git.txt\n", // ripgrep's own ignore file: git does not read it
  "a.txt": "",
  "b.txt": "",
  "{a,b}.txt": "", // braces are literal in .gitignore: only this file is ignored
  "kept-by-git.txt": "",
  "app.log": "",
  "important.log": "",
  "Upper.LOG": "", // case-sensitive
  "build/out.js": "",
  "src/build/kept.js": "", // "/build/" is anchored to the root
  "src/main.ts": "",
  "src/gen/.gitignore": "*.js\n!keep.js\n",
  "src/gen/x.js": "",
  "src/gen/keep.js": "",
  "src/gen/x.ts": "",
  "src/gen/deeper/.gitignore": "!y.js\n", // a deeper file wins over a shallower one
  "src/gen/deeper/y.js": "",
  "src/gen/deeper/z.js": "",
  "docs/a.tmp": "",
  "docs/sub/b.tmp": "", // "docs/*.tmp" does not reach into docs/sub
  "cache/data.txt": "",
  "lib/cache/x.txt": "", // "cache/" matches at any depth
  "private.md": "", // in .git/info/exclude
  "notes/private.md": "",
  ".hidden/h.txt": "",
  "node_modules/pkg/index.js": "",
};
const EXCLUDE = "private.md\n";
const ALWAYS_SKIPPED = /^(?:.*\/)?(?:node_modules|\.agentry|\.git)\//;

async function makeRepository(): Promise<string> {
  const root = await tempDir("agentry-walk-git-");
  for (const [path, text] of Object.entries(FILES)) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), `${text}needle\n`);
  }
  git(root, "init", "-q");
  await writeFile(join(root, ".git", "info", "exclude"), EXCLUDE);
  // Some files tracked, the rest untracked: `--cached` and `--others` both count.
  git(root, "add", "src/main.ts", "a.txt", ".gitignore");
  git(root, "commit", "-q", "-m", "some files");
  return root;
}

function git(cwd: string, ...args: string[]): string {
  return execFileSync("git", args, {
    cwd,
    encoding: "utf8",
    // No personal config: no global excludes file, a fixed identity.
    env: {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      HOME: cwd,
      GIT_CONFIG_GLOBAL: "/dev/null",
      GIT_CONFIG_NOSYSTEM: "1",
      GIT_AUTHOR_NAME: "t",
      GIT_AUTHOR_EMAIL: "t@example.com",
      GIT_COMMITTER_NAME: "t",
      GIT_COMMITTER_EMAIL: "t@example.com",
    },
  });
}

/** What git lists in `cwd`, relative to it, sorted, less the always-skipped folders. */
function gitFiles(cwd: string): string[] {
  return git(cwd, "ls-files", "--others", "--cached", "--exclude-standard")
    .split("\n")
    .filter((line) => line !== "" && !ALWAYS_SKIPPED.test(line))
    .sort();
}

async function grepFiles(workspace: string, engine: GrepEngine): Promise<string[]> {
  const { ctx } = makeContext(workspace, { ops: opsFor(engine) });
  const result = await runTool(grepTool, { pattern: "needle" }, ctx);
  expect(result.details).toMatchObject({ engine });
  return result.content.split("\n").slice(1).sort();
}

async function globFiles(workspace: string): Promise<string[]> {
  const result = await runTool(globTool, { pattern: "**/*" }, makeContext(workspace).ctx);
  return result.content.split("\n").sort();
}

/** The files of `list`'s tree, rebuilt as paths from its two-space indentation. */
async function listFiles(workspace: string): Promise<string[]> {
  const result = await runTool(listTool, {}, makeContext(workspace).ctx);
  const files: string[] = [];
  const folders: string[] = [];
  for (const line of result.content.split("\n").slice(1)) {
    const depth = (line.length - line.trimStart().length) / 2 - 1;
    const name = line.trim();
    folders.length = depth;
    if (name.endsWith("/")) folders.push(name.slice(0, -1));
    else files.push([...folders, name].join("/"));
  }
  return files.sort();
}

let repository: string;
beforeAll(async () => {
  repository = await makeRepository();
});

describe("file tools see what git sees", () => {
  it("the fixture exercises every rule (git's own listing)", () => {
    const listed = gitFiles(repository);
    expect(listed).toEqual(
      [
        ".gitignore",
        ".hidden/h.txt",
        ".ignore",
        "Upper.LOG",
        "a.txt",
        "b.txt",
        "docs/sub/b.tmp",
        "important.log",
        "kept-by-git.txt",
        "src/build/kept.js",
        "src/gen/.gitignore",
        "src/gen/deeper/.gitignore",
        "src/gen/deeper/y.js",
        "src/gen/keep.js",
        "src/gen/x.ts",
        "src/main.ts",
      ].sort(),
    );
  });

  it("grep without ripgrep", async () => {
    expect(await grepFiles(repository, "js")).toEqual(gitFiles(repository));
  });

  it("glob", async () => {
    expect(await globFiles(repository)).toEqual(gitFiles(repository));
  });

  it("list", async () => {
    expect(await listFiles(repository)).toEqual(gitFiles(repository));
  });

  it("in a workspace that is a folder of the repository, the rules above it still apply", async () => {
    const src = join(repository, "src");
    expect(gitFiles(src)).toContain("gen/keep.js");
    expect(await grepFiles(src, "js")).toEqual(gitFiles(src));
    expect(await globFiles(src)).toEqual(gitFiles(src));
  });

  it("in a linked worktree, the main repository's info/exclude applies", async () => {
    const worktree = join(await tempDir("agentry-walk-worktree-"), "wt");
    git(repository, "worktree", "add", "-q", worktree);
    await writeFile(join(worktree, "private.md"), "needle\n");
    await writeFile(join(worktree, "open.md"), "needle\n");
    const listed = gitFiles(worktree);
    expect(listed).toEqual([".gitignore", "a.txt", "open.md", "src/main.ts"]);
    expect(await grepFiles(worktree, "js")).toEqual(listed);
    expect(await globFiles(worktree)).toEqual(listed);
  });
});

describeWith(RIPGREP, "grep with ripgrep sees what git sees", () => {
  it("in the repository", async () => {
    expect(await grepFiles(repository, "ripgrep")).toEqual(gitFiles(repository));
  });

  it("in a folder of the repository", async () => {
    const src = join(repository, "src");
    expect(await grepFiles(src, "ripgrep")).toEqual(gitFiles(src));
  });
});
