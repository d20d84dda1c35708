import { execFileSync } from "node:child_process";
import { mkdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { findGitLayout } from "../../src/sandbox/git-layout.ts";
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
