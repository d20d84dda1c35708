// File I/O on exactly the path a tool checked. A tool resolves a path to its real location and checks
// that against the workspace and the rules; if the I/O then opened the path again by name, a folder on
// it swapped for a symbolic link in between (a command of a concurrent tool call, another agent in the
// same workspace) would take the read or the write wherever the link points — outside the workspace, or
// into `.git`. So every open here refuses a link as the last component (O_NOFOLLOW), then asks the
// kernel where the opened descriptor really is (Linux: `readlink /proc/self/fd/<n>`) and reads or
// writes through that descriptor only when it is the checked path. A file or folder is created inside
// the folder descriptor already checked (`/proc/self/fd/<n>/<name>` is looked up in that very folder,
// like `openat`), never by walking the path's names again.
//
// Without `/proc/self/fd` (macOS, a Linux without /proc) nothing names a descriptor's path from Node:
// the descriptor is compared with the path as it resolves just after the open (same device and inode,
// no link on the way). That narrows the window but cannot close it; docs/security.md says so.

import {
  closeSync,
  constants,
  existsSync,
  fstatSync,
  openSync,
  readlinkSync,
  realpathSync,
  type Stats,
  statSync,
} from "node:fs";
import { type FileHandle, lstat, mkdir, open, readdir, readlink, realpath, stat } from "node:fs/promises";
import { basename, dirname } from "node:path";
import { fsPath, pathFromBytes } from "./byte-names.ts";
import { ToolError } from "./tool.ts";

const O_NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const O_DIRECTORY = constants.O_DIRECTORY ?? 0;
// A FIFO put where a file was would block an open for reading until a writer came; with O_NONBLOCK the
// open returns at once and the type check below refuses it.
const O_NONBLOCK = constants.O_NONBLOCK ?? 0;
const READ_CHUNK_BYTES = 1024 * 1024;
/** Files `withOpenFilesExact` opens before it lets the event loop run. */
const OPEN_SLICE = 256;

type Kind = "file" | "directory";

/**
 * The path a tool checked is not what the I/O found: a folder on it became a symbolic link, or the file
 * was moved, after the check. Nothing was read or written.
 */
export class PathChangedError extends ToolError {
  constructor(path: string, found?: string) {
    super(
      `${path} changed while it was being opened: ${found === undefined ? "a symbolic link is now on its path" : `it now leads to ${found}`}. ` +
        "Nothing was read or written. Something else is changing this folder at the same time; check it and try again.",
    );
  }
}

let procFdKnown: boolean | undefined;
/** Whether the kernel names a descriptor's path at `/proc/self/fd/<n>` (and looks names up under it). */
function hasProcFd(): boolean {
  procFdKnown ??= process.platform === "linux" && existsSync("/proc/self/fd");
  return procFdKnown;
}

const procPath = (handle: FileHandle, name?: Buffer): Buffer =>
  Buffer.concat([
    Buffer.from(`/proc/self/fd/${handle.fd}`),
    ...(name === undefined ? [] : [Buffer.from("/"), name]),
  ]);

const bytesOf = (path: string): Buffer => {
  const native = fsPath(path);
  return typeof native === "string" ? Buffer.from(native) : native;
};

/** Opens `path` (a real path) for reading, or throws; the caller closes it. */
function openFileExact(path: string): Promise<FileHandle> {
  return openExact(path, constants.O_RDONLY, "file");
}

export async function readFileExact(path: string): Promise<Buffer> {
  const handle = await openFileExact(path);
  try {
    return await handle.readFile();
  } finally {
    await handle.close();
  }
}

export async function* readChunksExact(path: string): AsyncGenerator<Buffer> {
  const handle = await openFileExact(path);
  try {
    const stream = handle.createReadStream({ highWaterMark: READ_CHUNK_BYTES, autoClose: false });
    for await (const chunk of stream) yield chunk as Buffer;
  } finally {
    await handle.close();
  }
}

/** The raw entries of the folder at `path` (a real path), read through its checked descriptor. */
export async function readdirExact(path: string) {
  const handle = await openExact(path, constants.O_RDONLY, "directory");
  try {
    // Listing /proc/self/fd/<n> lists the very folder the descriptor holds, wherever its name now leads.
    return await readdir(hasProcFd() ? procPath(handle) : fsPath(path), {
      withFileTypes: true,
      encoding: "buffer",
    });
  } finally {
    await handle.close();
  }
}

/**
 * Replaces the content of the file at `path` (a real path) in place, creating it and its missing
 * folders inside the checked parent folder. In place, not temp + rename: the file keeps its mode, owner
 * and hard links, as `fs.writeFile` did.
 */
export async function writeFileExact(path: string, data: string | Uint8Array): Promise<void> {
  const parent = await openFolderCreating(dirname(path));
  try {
    const handle = await openIn(parent, path, constants.O_WRONLY | constants.O_CREAT, "file");
    try {
      await handle.truncate(0);
      await handle.writeFile(data);
    } finally {
      await handle.close();
    }
  } finally {
    await parent.close();
  }
}

/** Creates the folder at `path` (a real path) and its missing parents, each inside its checked parent. */
export async function mkdirExact(path: string): Promise<void> {
  await (await openFolderCreating(path)).close();
}

/**
 * Opens `paths` as `readFileExact` does and hands `use`, for each, a path through which another process
 * of this machine reads that opened file (`/proc/<pid>/fd/<n>`), or undefined for one that could not be
 * opened. Without `/proc` the checked path itself is handed on (see the note at the top).
 */
export async function withOpenFilesExact<T>(
  paths: readonly string[],
  use: (opened: ReadonlyArray<string | undefined>) => Promise<T>,
): Promise<T> {
  const descriptors: Array<number | undefined> = [];
  try {
    // Synchronous opens, a slice at a time: a search opens thousands of files, and four promise round
    // trips a file cost three to four times as much (measured), while a slice holds the loop ~1 ms.
    for (let start = 0; start < paths.length; start += OPEN_SLICE) {
      if (start > 0) await new Promise((resolve) => setImmediate(resolve));
      for (const path of paths.slice(start, start + OPEN_SLICE)) descriptors.push(openCheckedSync(path));
    }
    const viaProc = hasProcFd();
    return await use(
      descriptors.map((fd, index) => {
        if (fd === undefined) return undefined;
        return viaProc ? `/proc/${process.pid}/fd/${fd}` : paths[index];
      }),
    );
  } finally {
    for (const fd of descriptors) if (fd !== undefined) closeSync(fd);
  }
}

/**
 * `openFileExact` without promises: the descriptor of the regular file at exactly `path`, or undefined
 * when there is none (a file a search cannot open is skipped). Running out of descriptors is not that,
 * and must not make a search silently find less: it throws.
 */
function openCheckedSync(path: string): number | undefined {
  let fd: number;
  try {
    fd = openSync(fsPath(path), openFlags(constants.O_RDONLY, "file"));
  } catch (error) {
    if (isErrno(error, "EMFILE") || isErrno(error, "ENFILE")) throw error;
    return undefined;
  }
  try {
    const opened = fstatSync(fd);
    const expected = bytesOf(path);
    const where = hasProcFd()
      ? readlinkSync(`/proc/self/fd/${fd}`, { encoding: "buffer" })
      : realpathSync(fsPath(path), { encoding: "buffer" });
    const now = hasProcFd() ? opened : statSync(fsPath(path));
    if (opened.isFile() && where.equals(expected) && now.ino === opened.ino && now.dev === opened.dev)
      return fd;
  } catch {
    // Not there any more: skipped like a file that could not be opened.
  }
  closeSync(fd);
  return undefined;
}

async function openExact(path: string, flags: number, kind: Kind): Promise<FileHandle> {
  const handle = await open(fsPath(path), openFlags(flags, kind)).catch((error: unknown) =>
    rethrowLinked(error, path),
  );
  return checked(handle, path, kind);
}

/** Opens `path`, whose parent folder is `parent` (checked already), without walking its names again. */
async function openIn(parent: FileHandle, path: string, flags: number, kind: Kind): Promise<FileHandle> {
  if (!hasProcFd()) return openExact(path, flags, kind);
  const handle = await open(procPath(parent, bytesOf(basename(path))), openFlags(flags, kind)).catch(
    (error: unknown) => rethrowLinked(error, path),
  );
  return checked(handle, path, kind);
}

/** The folder at `path`, opened and checked; what is missing of it is created inside its checked parent. */
async function openFolderCreating(path: string): Promise<FileHandle> {
  try {
    return await openExact(path, constants.O_RDONLY, "directory");
  } catch (error) {
    if (!isErrno(error, "ENOENT") || dirname(path) === path) throw error;
  }
  if (!hasProcFd()) {
    await mkdir(fsPath(path), { recursive: true });
    return openExact(path, constants.O_RDONLY, "directory");
  }
  const parent = await openFolderCreating(dirname(path));
  try {
    await mkdir(procPath(parent, bytesOf(basename(path)))).catch((error: unknown) => {
      if (!isErrno(error, "EEXIST")) throw error;
    });
    return await openIn(parent, path, constants.O_RDONLY, "directory");
  } finally {
    await parent.close();
  }
}

function openFlags(flags: number, kind: Kind): number {
  return flags | O_NOFOLLOW | O_NONBLOCK | (kind === "directory" ? O_DIRECTORY : 0);
}

/** Closes `handle` and throws unless it holds a `kind` at exactly `path`. */
async function checked(handle: FileHandle, path: string, kind: Kind): Promise<FileHandle> {
  try {
    const [stats, found] = await Promise.all([
      handle.stat(),
      hasProcFd() ? readlink(`/proc/self/fd/${handle.fd}`, { encoding: "buffer" }) : undefined,
    ]);
    if (found !== undefined && !found.equals(bytesOf(path)))
      throw new PathChangedError(path, pathFromBytes(found));
    if (kind === "file" && !stats.isFile())
      throw new ToolError(`${path} is not a regular file (a directory, device, socket or pipe).`);
    if (kind === "directory" && !stats.isDirectory()) throw new ToolError(`${path} is not a directory.`);
    if (found === undefined) await compareWithName(stats, path);
    return handle;
  } catch (error) {
    await handle.close();
    throw error;
  }
}

async function compareWithName(opened: Stats, path: string): Promise<void> {
  const [real, now] = await Promise.all([
    realpath(fsPath(path), { encoding: "buffer" }).catch(() => undefined),
    stat(fsPath(path)).catch(() => undefined),
  ]);
  if (real === undefined || now === undefined || !real.equals(bytesOf(path)))
    throw new PathChangedError(path);
  if (now.dev !== opened.dev || now.ino !== opened.ino) throw new PathChangedError(path);
}

/** A link as the last name fails O_NOFOLLOW with ELOOP (ENOTDIR with O_DIRECTORY): say what happened. */
async function rethrowLinked(error: unknown, path: string): Promise<never> {
  if (isErrno(error, "ELOOP")) throw new PathChangedError(path);
  if (isErrno(error, "ENOTDIR")) {
    const found = await lstat(fsPath(path)).catch(() => undefined);
    if (found?.isSymbolicLink()) throw new PathChangedError(path);
  }
  throw error;
}

export function isErrno(error: unknown, code: string): boolean {
  return error instanceof Error && "code" in error && error.code === code;
}
