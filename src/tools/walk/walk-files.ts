import { join, posix, relative, sep } from "node:path";
import type { Operations } from "../operations.ts";
import { type GitignoreScope, gitignoreScopeFor, isGitIgnored, withIgnoreFile } from "./gitignore-scope.ts";
import { ALWAYS_IGNORED_DIRS, type IgnoreMatcher } from "./ignore-rules.ts";

export interface WalkEntry {
  absolute: string;
  /** Relative to the workspace root, `/`-separated. */
  path: string;
  /** Relative to the directory being walked, `/`-separated. */
  pathFromStart: string;
  isDirectory: boolean;
  isFile: boolean;
  isSymbolicLink: boolean;
  /** 1 for the start directory's own entries. */
  depth: number;
}

export interface WalkOptions {
  ops: Operations;
  /** Real path of the workspace root. */
  workspace: string;
  /** Absolute real path of the directory to walk (inside the workspace). */
  start: string;
  /** Extra patterns relative to `start` (e.g. `list`'s `ignore`). */
  extraIgnore?: IgnoreMatcher;
  signal?: AbortSignal;
}

/**
 * Breadth-first walk, entries of a directory sorted by name. Leaves out what git leaves out
 * (`.gitignore` files at every level, `.git/info/exclude`: see `gitignore-scope.ts`) and `.git`,
 * `node_modules` and `.agentry` always, and never descends into a symlinked directory (it could lead
 * outside the workspace). Unreadable directories are skipped.
 */
export async function* walkFiles(options: WalkOptions): AsyncGenerator<WalkEntry> {
  const { ops, workspace, start } = options;
  const queue: Array<{ dir: string; depth: number; scope: GitignoreScope }> = [
    { dir: start, depth: 1, scope: await gitignoreScopeFor(ops, workspace, start) },
  ];
  for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
    options.signal?.throwIfAborted();
    const entries = await ops.readdir(next.dir).catch(() => []);
    entries.sort((a, b) => compareNames(a.name, b.name));
    let { scope } = next;
    // The start folder's own .gitignore is in the scope already; deeper ones join as the walk meets them.
    if (next.depth > 1 && entries.some((entry) => entry.name === ".gitignore" && entry.isFile)) {
      const text = await ops.readFile(join(next.dir, ".gitignore")).then(
        (buffer) => buffer.toString("utf8"),
        () => "",
      );
      scope = withIgnoreFile(scope, toPosix(relative(scope.root, next.dir)), text);
    }
    for (const entry of entries) {
      const absolute = join(next.dir, entry.name);
      const path = toPosix(relative(workspace, absolute));
      const pathFromStart = toPosix(relative(start, absolute));
      // `.git` is a file in a linked worktree or a submodule; git never lists it either way.
      if (entry.name === ".git" || (entry.isDirectory && ALWAYS_IGNORED_DIRS.has(entry.name))) continue;
      if (isGitIgnored(scope, toPosix(relative(scope.root, absolute)), entry.isDirectory)) continue;
      if (options.extraIgnore?.ignores(pathFromStart, entry.isDirectory)) continue;
      yield { absolute, path, pathFromStart, ...entry, depth: next.depth };
      if (entry.isDirectory) queue.push({ dir: absolute, depth: next.depth + 1, scope });
    }
  }
}

export function toPosix(path: string): string {
  return sep === "/" ? path : path.split(sep).join(posix.sep);
}

/** Byte-order comparison of names, so output is stable across locales. */
export function compareNames(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Orders paths segment by segment (`a/b` before `a.ts`), the way a directory walk meets them. */
export function comparePaths(a: string, b: string): number {
  const left = a.split("/");
  const right = b.split("/");
  for (let i = 0; i < Math.min(left.length, right.length); i++) {
    const order = compareNames(left[i]!, right[i]!);
    if (order !== 0) return order;
  }
  return left.length - right.length;
}
