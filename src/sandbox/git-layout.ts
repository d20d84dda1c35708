import { readFile, realpath, stat } from "node:fs/promises";
import { basename, dirname, isAbsolute, join, resolve } from "node:path";

/** Where the git repository of a workspace keeps its data, as git itself would find it. */
export interface GitLayout {
  /** The folder holding `.git` (the workspace or an ancestor). */
  top: string;
  /** The checkout's own git folder (HEAD, index): `top/.git`, or a linked worktree's `.git/worktrees/<id>`. */
  gitDir: string;
  /** The git folder shared by all worktrees (objects, refs, config): `gitDir`, or what its `commondir` names. */
  commonDir: string;
  /** Whether `top/.git` is a file pointing at `gitDir` (a linked worktree). */
  linked: boolean;
}

/**
 * The git layout around `workspace`, or undefined outside a repository. Reads a few files, runs no git.
 * A `commondir` file is honoured wherever it is, as git honours it (in a main `.git` too): the layout
 * says where git would really go, and `gitLayoutProblem` says when that is not where it should.
 */
export async function findGitLayout(workspace: string): Promise<GitLayout | undefined> {
  for (let dir = workspace; ; dir = dirname(dir)) {
    const dotGit = join(dir, ".git");
    const info = await stat(dotGit).catch(() => undefined);
    if (info?.isDirectory()) return withCommonDir(dir, await real(dotGit), false);
    if (info?.isFile()) return linkedWorktree(dir, dotGit);
    if (dirname(dir) === dir) return undefined;
  }
}

/** A `.git` file says `gitdir: <path>`; that folder's `commondir` file names the shared git folder. */
async function linkedWorktree(top: string, dotGit: string): Promise<GitLayout | undefined> {
  const pointer = (await readFile(dotGit, "utf8").catch(() => "")).match(/^gitdir:\s*(.+?)\s*$/m)?.[1];
  if (pointer === undefined) return undefined;
  return withCommonDir(top, await real(isAbsolute(pointer) ? pointer : resolve(top, pointer)), true);
}

async function withCommonDir(top: string, gitDir: string, linked: boolean): Promise<GitLayout> {
  const common = (await readFile(join(gitDir, "commondir"), "utf8").catch(() => "")).trim();
  const commonDir = common === "" ? gitDir : await real(resolve(gitDir, common));
  return { top, gitDir, commonDir, linked };
}

async function real(path: string): Promise<string> {
  return realpath(path).catch(() => path);
}

/**
 * Why git in this checkout would not use its own repository, or undefined when the layout is the one
 * git makes: a main `.git` has no `commondir`, and a linked worktree's git folder is
 * `<common dir>/worktrees/<id>` (its `commondir` says `../..`). Anything else is a redirection a
 * command planted (a `commondir` naming a folder with a config of its choosing).
 */
export function gitLayoutProblem(layout: GitLayout): string | undefined {
  if (!layout.linked) {
    if (layout.commonDir === layout.gitDir) return undefined;
    return `${join(layout.gitDir, "commondir")} sends git to ${layout.commonDir}, which a repository's own .git never does`;
  }
  const expected = dirname(dirname(layout.gitDir));
  if (basename(dirname(layout.gitDir)) !== "worktrees")
    return `${join(layout.top, ".git")} points at ${layout.gitDir}, which is not a worktree's folder of a repository (.git/worktrees/<id>)`;
  if (layout.commonDir !== expected)
    return `the worktree's ${join(layout.gitDir, "commondir")} sends git to ${layout.commonDir} instead of its repository ${expected}`;
  return undefined;
}

/** Whether two layouts send git to the same folders. */
export function sameGitLayout(a: GitLayout, b: GitLayout): boolean {
  return a.top === b.top && a.gitDir === b.gitDir && a.commonDir === b.commonDir && a.linked === b.linked;
}
