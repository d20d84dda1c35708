import { accessSync, constants, statSync } from "node:fs";
import { delimiter, isAbsolute, join, resolve } from "node:path";

/**
 * Where `exec` would find `file`: itself when it has a slash (against `cwd`), else the first
 * executable regular file of that name in `path`'s folders (a relative one against `cwd`). Undefined
 * when there is none. The one look-up of a program on the PATH: bubblewrap's, the shell's, and the
 * program a watched command starts.
 */
export function findExecutable(file: string, cwd: string, path: string): string | undefined {
  const candidates = file.includes("/")
    ? [isAbsolute(file) ? file : resolve(cwd, file)]
    : path
        .split(delimiter)
        .filter((dir) => dir !== "")
        .map((dir) => resolve(cwd, join(dir, file)));
  return candidates.find(isExecutableFile);
}

function isExecutableFile(candidate: string): boolean {
  try {
    if (!statSync(candidate).isFile()) return false;
    accessSync(candidate, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
