import { execFileSync } from "node:child_process";
import { mkdir, rm, truncate, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  findGitLayout,
  type GitLayout,
  gitLayoutProblem,
  sameGitLayout,
} from "../../src/sandbox/git-layout.ts";
import { tempDir } from "../support/temp-dir.ts";

const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", ["-c", "user.email=t@t", "-c", "user.name=t", ...args], { cwd, stdio: "ignore" });

/** A repository `repo/` with one commit and a linked worktree `wt/` beside it. */
async function repoWithWorktree(): Promise<{ base: string; repo: string; worktree: string }> {
  const base = await tempDir("agentry-git-layout-");
  const repo = join(base, "repo");
  await mkdir(join(repo, "src"), { recursive: true });
  await writeFile(join(repo, "src", "a.ts"), "a\n");
  git(repo, "init", "-q");
  git(repo, "add", ".");
  git(repo, "commit", "-qm", "init");
  const worktree = join(base, "wt");
  git(repo, "worktree", "add", "-q", "-b", "side", worktree);
  return { base, repo, worktree };
}

describe("findGitLayout: where a workspace's git data is", () => {
  it("a repository's own folder, or a folder inside it: the repository's .git", async () => {
    const { repo } = await repoWithWorktree();
    const layout = { top: repo, gitDir: join(repo, ".git"), commonDir: join(repo, ".git"), linked: false };
    expect(await findGitLayout(repo)).toEqual(layout);
    expect(await findGitLayout(join(repo, "src"))).toEqual(layout);
  });

  it("a linked worktree: its own git folder, and the repository's shared one", async () => {
    const { repo, worktree } = await repoWithWorktree();
    const worktreeDir = join(repo, ".git", "worktrees", "wt");
    expect(await findGitLayout(worktree)).toEqual({
      top: worktree,
      gitDir: worktreeDir,
      commonDir: join(repo, ".git"),
      linked: true,
    });
    expect(await findGitLayout(join(worktree, "src"))).toEqual({
      top: worktree,
      gitDir: worktreeDir,
      commonDir: join(repo, ".git"),
      linked: true,
    });
  });

  it("a .git file whose gitdir is relative, written with spaces around it, is read from the worktree", async () => {
    const { repo, worktree } = await repoWithWorktree();
    await writeFile(join(worktree, ".git"), "gitdir:   ../repo/.git/worktrees/wt  \n");
    expect(await findGitLayout(worktree)).toEqual({
      top: worktree,
      gitDir: join(repo, ".git", "worktrees", "wt"),
      commonDir: join(repo, ".git"),
      linked: true,
    });
  });

  it("a worktree folder without a commondir file is its own shared folder", async () => {
    const { repo, worktree } = await repoWithWorktree();
    const worktreeDir = join(repo, ".git", "worktrees", "wt");
    await rm(join(worktreeDir, "commondir"));
    expect(await findGitLayout(worktree)).toEqual({
      top: worktree,
      gitDir: worktreeDir,
      commonDir: worktreeDir,
      linked: true,
    });
  });

  it("a .git file that names no gitdir, or a folder outside any repository: no layout", async () => {
    const { base, worktree } = await repoWithWorktree();
    await writeFile(join(worktree, ".git"), "see gitdir: /nowhere\n");
    expect(await findGitLayout(worktree)).toBeUndefined();
    const plain = join(base, "plain");
    await mkdir(plain);
    expect(await findGitLayout(plain)).toBeUndefined();
  });
});

describe("findGitLayout: pointers git cannot follow", () => {
  it("a .git file naming a folder that does not exist: that folder, as git would look for it", async () => {
    const { base, worktree } = await repoWithWorktree();
    const missing = join(base, "gone", "worktrees", "wt");
    await writeFile(join(worktree, ".git"), `gitdir: ${missing}\n`);
    expect(await findGitLayout(worktree)).toEqual({
      top: worktree,
      gitDir: missing,
      commonDir: missing,
      linked: true,
    });
  });

  it("a .git file too large to read: no layout", async () => {
    const { worktree } = await repoWithWorktree();
    // Sparse: 3 GB on paper, nothing on disk; Node refuses to read a file over 2 GB whole.
    await truncate(join(worktree, ".git"), 3 * 1024 ** 3);
    expect(await findGitLayout(worktree)).toBeUndefined();
  });
});

describe("gitLayoutProblem: a layout git did not make", () => {
  it("a main .git or a linked worktree as git makes them: no problem", async () => {
    const { repo, worktree } = await repoWithWorktree();
    for (const dir of [repo, worktree]) expect(gitLayoutProblem(await layoutOf(dir))).toBeUndefined();
  });

  it("a commondir in a main .git: named, with where it sends git", async () => {
    const { base, repo } = await repoWithWorktree();
    await mkdir(join(base, "ev"));
    await writeFile(join(repo, ".git", "commondir"), "../../ev\n");
    const problem = gitLayoutProblem(await layoutOf(repo));
    expect(problem).toContain(join(repo, ".git", "commondir"));
    expect(problem).toContain(`sends git to ${join(base, "ev")}`);
  });

  it("a .git file pointing at a folder that is not under .git/worktrees, even with the usual commondir", async () => {
    const { repo, worktree } = await repoWithWorktree();
    const elsewhere = join(repo, ".git", "elsewhere", "wt");
    await mkdir(elsewhere, { recursive: true });
    await writeFile(join(elsewhere, "commondir"), "../..\n");
    await writeFile(join(worktree, ".git"), `gitdir: ${elsewhere}\n`);
    const layout = await layoutOf(worktree);
    expect(layout.commonDir).toBe(join(repo, ".git"));
    const problem = gitLayoutProblem(layout);
    expect(problem).toContain(`${join(worktree, ".git")} points at ${elsewhere}`);
  });

  it("a worktree's commondir sending git to another folder: named, with the repository it should be", async () => {
    const { base, repo, worktree } = await repoWithWorktree();
    await mkdir(join(base, "ev"));
    const commondir = join(repo, ".git", "worktrees", "wt", "commondir");
    await writeFile(commondir, `${join(base, "ev")}\n`);
    const problem = gitLayoutProblem(await layoutOf(worktree));
    expect(problem).toContain(`${commondir} sends git to ${join(base, "ev")}`);
    expect(problem).toContain(`instead of its repository ${join(repo, ".git")}`);
  });
});

describe("sameGitLayout", () => {
  it("the same folders: same; any one of them different: not", async () => {
    const { repo, worktree } = await repoWithWorktree();
    const layout = await layoutOf(worktree);
    expect(sameGitLayout(layout, { ...layout })).toBe(true);
    expect(sameGitLayout(layout, { ...layout, top: repo })).toBe(false);
    expect(sameGitLayout(layout, { ...layout, gitDir: join(repo, ".git") })).toBe(false);
    expect(sameGitLayout(layout, { ...layout, commonDir: layout.gitDir })).toBe(false);
    expect(sameGitLayout(layout, { ...layout, linked: false })).toBe(false);
  });
});

async function layoutOf(dir: string): Promise<GitLayout> {
  const layout = await findGitLayout(dir);
  if (layout === undefined) throw new Error(`${dir} is in no repository`);
  return layout;
}
