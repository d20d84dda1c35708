import { isAbsolute, relative, sep } from "node:path";

/** Whether `path` is `root` or lies under it, by their names alone (links are the caller's to resolve). */
export function isInside(path: string, root: string): boolean {
  const fromRoot = relative(root, path);
  return fromRoot !== ".." && !fromRoot.startsWith(`..${sep}`) && !isAbsolute(fromRoot);
}
