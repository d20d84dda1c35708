import type { Stats } from "node:fs";
import { lstat, realpath, stat } from "node:fs/promises";
import { fsPath, nameFromBytes, pathFromBytes } from "./byte-names.ts";
import {
  isErrno,
  mkdirExact,
  readChunksExact,
  readdirExact,
  readFileExact,
  withOpenFilesExact,
  writeFileExact,
} from "./exact-path-io.ts";
import type { FileStat, Operations } from "./operations.ts";
import { runShellCommand } from "./process/shell-process.ts";

/**
 * The local machine: node:fs/promises for files, a process group per shell command. Paths go through
 * `byte-names.ts`, so a name that is not valid UTF-8 is reachable in the `\xHH` form the tools show.
 * Reads, writes and listings open exactly the real path they are given (`exact-path-io.ts`).
 */
export const nodeOperations: Operations = {
  readFile: readFileExact,
  readChunks: readChunksExact,
  writeFile: writeFileExact,
  withOpenFiles: withOpenFilesExact,
  lstat: (path) => statOrUndefined(lstat(fsPath(path))),
  stat: (path) => statOrUndefined(stat(fsPath(path))),
  realpath: async (path) => pathFromBytes(await realpath(fsPath(path), { encoding: "buffer" })),
  async readdir(path) {
    const entries = await readdirExact(path);
    return entries.map((entry) => ({
      name: nameFromBytes(entry.name),
      isFile: entry.isFile(),
      isDirectory: entry.isDirectory(),
      isSymbolicLink: entry.isSymbolicLink(),
    }));
  },
  mkdir: mkdirExact,
  exec: runShellCommand,
};

async function statOrUndefined(pending: Promise<Stats>): Promise<FileStat | undefined> {
  try {
    const stats = await pending;
    return {
      isFile: stats.isFile(),
      isDirectory: stats.isDirectory(),
      isSymbolicLink: stats.isSymbolicLink(),
      size: stats.size,
      mtimeMs: stats.mtimeMs,
    };
  } catch (error) {
    // A missing path, or a path through something that is not a directory, simply does not exist.
    if (isErrno(error, "ENOENT") || isErrno(error, "ENOTDIR")) return undefined;
    throw error;
  }
}
