import { basename } from "node:path";
import type { Operations } from "../operations.ts";
import { globToRegExp } from "../walk/glob-pattern.ts";
import { comparePaths, walkFiles } from "../walk/walk-files.ts";
import type { GrepFile, GrepQuery } from "./grep-query.ts";

/**
 * The files a search looks in, in path order: the target file itself, or every file the walk keeps
 * under the target folder (git's ignore rules, see `walk-files.ts`) that matches the query's glob.
 * Both engines search exactly these, so they never disagree on which files count.
 */
export async function filesToSearch(
  ops: Operations,
  query: GrepQuery,
  signal: AbortSignal,
): Promise<GrepFile[]> {
  if (query.targetIsFile) return [{ absolute: query.target, path: query.targetRelative }];
  // Like ripgrep's --glob: a pattern without `/` matches the file name at any depth.
  const glob = query.glob === undefined ? undefined : globToRegExp(query.glob);
  const byName = query.glob !== undefined && !query.glob.includes("/");
  const files: GrepFile[] = [];
  for await (const entry of walkFiles({ ops, workspace: query.root, start: query.target, signal })) {
    if (!entry.isFile) continue;
    if (glob !== undefined && !glob.test(byName ? basename(entry.path) : entry.pathFromStart)) continue;
    files.push({ absolute: entry.absolute, path: entry.path });
  }
  return files.sort((a, b) => comparePaths(a.path, b.path));
}
