import { createReadStream, type Stats } from "node:fs";
import { lstat, mkdir, readdir, readFile, realpath, stat, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { fsPath, nameFromBytes, pathFromBytes } from "./byte-names.ts";
import type { FileStat, Operations } from "./operations.ts";
import { runShellCommand } from "./shell-process.ts";

const READ_CHUNK_BYTES = 1024 * 1024;

/**
 * The local machine: node:fs/promises for files, a process group per shell command. Paths go through
 * `byte-names.ts`, so a name that is not valid UTF-8 is reachable in the `\xHH` form the tools show.
 */
export const nodeOperations: Operations = {
  readFile: (path) => readFile(fsPath(path)),
  readChunks: (path) => createReadStream(fsPath(path), { highWaterMark: READ_CHUNK_BYTES }),
  async writeFile(path, data) {
    await mkdir(fsPath(dirname(path)), { recursive: true });
    await writeFile(fsPath(path), data);
  },
  lstat: (path) => statOrUndefined(lstat(fsPath(path))),
  stat: (path) => statOrUndefined(stat(fsPath(path))),
  realpath: async (path) => pathFromBytes(await realpath(fsPath(path), { encoding: "buffer" })),
  async readdir(path) {
    const entries = await readdir(fsPath(path), { withFileTypes: true, encoding: "buffer" });
    return entries.map((entry) => ({
      name: nameFromBytes(entry.name),
      isFile: entry.isFile(),
      isDirectory: entry.isDirectory(),
      isSymbolicLink: entry.isSymbolicLink(),
    }));
  },
  async mkdir(path) {
    await mkdir(fsPath(path), { recursive: true });
  },
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
    if (isErrnoCode(error, "ENOENT") || isErrnoCode(error, "ENOTDIR")) return undefined;
    throw error;
  }
}

function isErrnoCode(error: unknown, code: string): boolean {
  return error instanceof Error && "code" in error && error.code === code;
}
