import { execFile } from "node:child_process";
import type { Stats } from "node:fs";
import { constants } from "node:fs";
import {
  copyFile,
  lstat,
  mkdir,
  mkdtemp,
  open,
  readdir,
  readlink,
  rename,
  rm,
  symlink,
  unlink,
  utimes,
  writeFile,
} from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * What git needs to write in a git folder to add, commit, branch, stash, fetch and merge — an allow
 * list: everything else in it (config, hooks, info, commondir, worktrees, modules …) is read-only for
 * commands, and nothing new appears in it. Folders: written in place.
 */
export const GIT_WRITABLE_DIRS: readonly string[] = ["objects", "refs", "logs"];

/** Files at the top of a git folder that git rewrites (by `<name>.lock` and a rename): copied back. */
export const GIT_CHANGING_FILES: readonly string[] = [
  "index",
  "HEAD",
  "ORIG_HEAD",
  "FETCH_HEAD",
  "COMMIT_EDITMSG",
  "packed-refs",
  "MERGE_HEAD",
  "MERGE_MSG",
  "MERGE_MODE",
  "AUTO_MERGE",
  "CHERRY_PICK_HEAD",
  "REVERT_HEAD",
  "SQUASH_MSG",
  "TAG_EDITMSG",
  "shallow",
];

const CHANGING = new Set(GIT_CHANGING_FILES);
/** A split index's shared part (`git update-index --split-index`), named by its hash. */
const SHARED_INDEX = /^sharedindex\.[0-9a-f]{40,64}$/;

/** Whether a command's version of this top-level file of a git folder goes back to the repository. */
export function gitFileMayChange(name: string): boolean {
  return CHANGING.has(name) || SHARED_INDEX.test(name);
}

/**
 * How a command sees one git folder: `staging` (a host folder of agentry's) is mounted at `path`,
 * holding copies of the files git rewrites; the writable folders and every other entry of the real
 * git folder are mounted over it, read-write and read-only. The mount at `path` cannot be renamed or
 * removed, and what a command creates in it stays in `staging`, which goes away after the command.
 */
export interface GitDirView {
  path: string;
  staging: string;
  /** Absolute paths under `path` mounted read-write from the real git folder. */
  writable: string[];
  /** Absolute paths under `path` mounted read-only from the real git folder. */
  readOnly: string[];
}

export interface StagedGitDir {
  view: GitDirView;
  /**
   * After the command: its versions of the files git rewrites replace the repository's (under git's
   * own `<name>.lock`, so never under a git running outside), then `staging` is removed. A file the
   * repository changed meanwhile keeps the repository's version. Returns the names not copied back.
   */
  finish(): Promise<string[]>;
}

interface Copied {
  /** The repository's file when it was copied (to see whether it changed meanwhile). */
  source: Stats;
  /** The copy as made (to see whether the command changed it). */
  copy: Stats;
}

/** Prepares the command's view of the git folder `path` (see `GitDirView`). */
export async function stageGitDir(path: string): Promise<StagedGitDir> {
  const staging = await mkdtemp(join(tmpdir(), "agentry-git-"));
  const view: GitDirView = { path, staging, writable: [], readOnly: [] };
  const copied = new Map<string, Copied>();
  try {
    for (const entry of await readdir(path, { withFileTypes: true })) {
      const from = join(path, entry.name);
      const to = join(staging, entry.name);
      if (entry.isDirectory()) {
        await mkdir(to);
        (GIT_WRITABLE_DIRS.includes(entry.name) ? view.writable : view.readOnly).push(from);
      } else if (entry.isFile() && gitFileMayChange(entry.name)) {
        const source = await lstat(from);
        await copyFile(from, to);
        await utimes(to, source.atime, source.mtime);
        copied.set(entry.name, { source, copy: await lstat(to) });
      } else if (entry.isFile()) {
        await writeFile(to, "");
        view.readOnly.push(from);
      } else if (entry.isSymbolicLink()) {
        await symlink(await readlink(from), to);
      }
      // Sockets and pipes in a git folder are no part of git's data: left out.
    }
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    throw error;
  }
  return { view, finish: () => copyBack(path, staging, copied) };
}

async function copyBack(path: string, staging: string, copied: Map<string, Copied>): Promise<string[]> {
  const skipped: string[] = [];
  try {
    const created = (await readdir(staging)).filter((name) => gitFileMayChange(name) && !copied.has(name));
    for (const name of [...copied.keys(), ...created]) {
      const before = copied.get(name);
      const now = await lstat(join(staging, name)).catch(() => undefined);
      // Only regular files go back: a symlink or folder in their place is the command's alone.
      if (now !== undefined && !now.isFile()) continue;
      if (now !== undefined && before !== undefined && sameFile(now, before.copy)) continue;
      if (now === undefined && (before === undefined || name === "HEAD")) continue;
      const current = await lstat(join(path, name)).catch(() => undefined);
      const untouched =
        before === undefined
          ? current === undefined
          : current !== undefined && sameFile(current, before.source);
      const from = now === undefined ? undefined : join(staging, name);
      if (
        !untouched ||
        (name === "index" && from !== undefined && (await addsGitlinks(path, join(path, name), from))) ||
        !(await replace(path, name, from))
      )
        skipped.push(name);
    }
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
  return skipped;
}

/**
 * Whether the command's index records a submodule (a gitlink) the repository's did not: a `git status`
 * recurses into a submodule and runs git there with its own config — a `.git` the command may have made
 * in the workspace. Such an index is not put back (a command cannot add a real submodule anyway:
 * `.gitmodules` is protected). True too when either index cannot be read (fail closed).
 */
async function addsGitlinks(gitDir: string, index: string, candidate: string): Promise<boolean> {
  const [before, after] = await Promise.all([gitlinks(gitDir, index), gitlinks(gitDir, candidate)]);
  if (before === undefined || after === undefined) return true;
  return [...after].some((path) => !before.has(path));
}

/** The gitlink paths of an index (none for a missing one), read by `git ls-files`; undefined on failure. */
async function gitlinks(gitDir: string, index: string): Promise<Set<string> | undefined> {
  if ((await lstat(index).catch(() => undefined)) === undefined) return new Set();
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    GIT_INDEX_FILE: index,
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_CONFIG_GLOBAL: "/dev/null",
    GIT_CONFIG_COUNT: "1",
    GIT_CONFIG_KEY_0: "core.fsmonitor",
    GIT_CONFIG_VALUE_0: "false",
  };
  const listed = await new Promise<string | undefined>((resolve) => {
    execFile(
      "git",
      ["--git-dir", gitDir, "ls-files", "--stage", "-z"],
      { env, cwd: gitDir, maxBuffer: 256 * 1024 * 1024 },
      (error, stdout) => resolve(error === null ? String(stdout) : undefined),
    );
  });
  if (listed === undefined) return undefined;
  const paths = listed
    .split("\0")
    .filter((entry) => entry.startsWith("160000 "))
    .map((entry) => entry.slice(entry.indexOf("\t") + 1));
  return new Set(paths);
}

/** Puts `from` (or nothing) at `path/name` under git's lock; false when a git holds the lock. */
async function replace(path: string, name: string, from: string | undefined): Promise<boolean> {
  const target = join(path, name);
  const lock = `${target}.lock`;
  const handle = await open(lock, constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY, 0o644).catch(
    () => undefined,
  );
  if (handle === undefined) return false;
  await handle.close();
  try {
    if (from === undefined) {
      await unlink(target).catch(() => {});
      await unlink(lock);
      return true;
    }
    const info = await lstat(from);
    await copyFile(from, lock);
    await utimes(lock, info.atime, info.mtime);
    await rename(lock, target);
    return true;
  } catch {
    await unlink(lock).catch(() => {});
    return false;
  }
}

/** The same file, unchanged: ctime moves with any write and cannot be set back. */
function sameFile(a: Stats, b: Stats): boolean {
  return a.ino === b.ino && a.size === b.size && a.mtimeMs === b.mtimeMs && a.ctimeMs === b.ctimeMs;
}
