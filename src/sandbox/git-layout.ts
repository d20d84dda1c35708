import { readFile, stat } from "node:fs/promises";
import { dirname, isAbsolute, join, resolve } from "node:path";

/** Where the git repository of a workspace keeps its data, as far as a sandbox needs to know. */
export interface GitLayout {
  /** The folder holding `.git` (the workspace or an ancestor). */
  top: string;
  /** The repository's git folder shared by all its worktrees (`.git`, or what a worktree's `commondir` names). */
  commonDir: string;
  /** A linked worktree's own git folder (`.git/worktrees/<id>`), when `top` is one. */
  worktreeDir?: string;
}

/** The git layout around `workspace`, or undefined outside a repository. Reads a few files, runs no git. */
export async function findGitLayout(workspace: string): Promise<GitLayout | undefined> {
  for (let dir = workspace; ; dir = dirname(dir)) {
    const dotGit = join(dir, ".git");
    const info = await stat(dotGit).catch(() => undefined);
    if (info?.isDirectory()) return { top: dir, commonDir: dotGit };
    if (info?.isFile()) return linkedWorktree(dir, dotGit);
    if (dirname(dir) === dir) return undefined;
  }
}

/** A `.git` file says `gitdir: <path>`; that folder's `commondir` file names the shared git folder. */
async function linkedWorktree(top: string, dotGit: string): Promise<GitLayout | undefined> {
  const pointer = (await readFile(dotGit, "utf8").catch(() => "")).match(/^gitdir:\s*(.+?)\s*$/m)?.[1];
  if (pointer === undefined) return undefined;
  const worktreeDir = isAbsolute(pointer) ? pointer : resolve(top, pointer);
  const common = (await readFile(join(worktreeDir, "commondir"), "utf8").catch(() => "")).trim();
  const commonDir = common === "" ? worktreeDir : resolve(worktreeDir, common);
  return { top, commonDir, worktreeDir };
}
