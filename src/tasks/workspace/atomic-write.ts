import { randomBytes } from "node:crypto";
import { open, rename, rm } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { diskFullError } from "../../state/disk-full.ts";

/**
 * Replaces `path` with `data` so that a reader (or a crash, or `kill -9`) sees either the old file or
 * the new one, never a torn mix: write a temp file in the same directory (rename is atomic only
 * within one file system), fsync it, rename it over `path`, then fsync the directory so the rename
 * itself survives a power loss. Temp names start with "." and end in ".tmp" so scanners skip them.
 */
export async function writeFileAtomic(path: string, data: string): Promise<void> {
  const dir = dirname(path);
  const temp = join(dir, `.${basename(path)}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`);
  try {
    const handle = await open(temp, "wx", 0o644);
    try {
      await handle.writeFile(data, "utf8");
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true });
    // The old file is untouched: a full disk loses this write only, and says which file it was.
    throw diskFullError(error, path) ?? error;
  }
  await syncDirectory(dir);
}

async function syncDirectory(dir: string): Promise<void> {
  try {
    const handle = await open(dir, "r");
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // Some platforms (Windows) cannot open or fsync a directory; the rename is still atomic there.
  }
}
