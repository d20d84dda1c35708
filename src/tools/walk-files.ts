import { join, posix, relative, sep } from "node:path";
import { ALWAYS_IGNORED_DIRS, type IgnoreMatcher, parseIgnoreFile } from "./ignore-rules.ts";
import type { Operations } from "./operations.ts";

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
  /** Real path of the workspace root; the top-level `.gitignore` there applies. */
  workspace: string;
  /** Absolute real path of the directory to walk (inside the workspace). */
  start: string;
  /** Extra patterns relative to `start` (e.g. `list`'s `ignore`). */
  extraIgnore?: IgnoreMatcher;
  signal?: AbortSignal;
}

/**
 * Breadth-first walk, entries of a directory sorted by name. Skips `.git`, `node_modules` and
 * `.agentry`, whatever the top-level `.gitignore` ignores, and never descends into a symlinked directory
 * (it could lead outside the workspace). Unreadable directories are skipped.
 */
export async function* walkFiles(options: WalkOptions): AsyncGenerator<WalkEntry> {
  const { ops, workspace, start } = options;
  const gitignore = await loadGitignore(ops, workspace);
  const queue: Array<{ dir: string; depth: number }> = [{ dir: start, depth: 1 }];
  for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
    options.signal?.throwIfAborted();
    const entries = await ops.readdir(next.dir).catch(() => []);
    entries.sort((a, b) => compareNames(a.name, b.name));
    for (const entry of entries) {
      const absolute = join(next.dir, entry.name);
      const path = toPosix(relative(workspace, absolute));
      const pathFromStart = toPosix(relative(start, absolute));
      if (entry.isDirectory && ALWAYS_IGNORED_DIRS.has(entry.name)) continue;
      if (gitignore?.ignores(path, entry.isDirectory)) continue;
      if (options.extraIgnore?.ignores(pathFromStart, entry.isDirectory)) continue;
      yield { absolute, path, pathFromStart, ...entry, depth: next.depth };
      if (entry.isDirectory) queue.push({ dir: absolute, depth: next.depth + 1 });
    }
  }
}

async function loadGitignore(ops: Operations, workspace: string): Promise<IgnoreMatcher | undefined> {
  const file = join(workspace, ".gitignore");
  const stat = await ops.stat(file);
  if (!stat?.isFile) return undefined;
  const text = await ops.readFile(file).then(
    (buffer) => buffer.toString("utf8"),
    () => "",
  );
  return parseIgnoreFile(text);
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
