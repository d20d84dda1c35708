import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { mkdtemp, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { onTestFinished } from "vitest";

/**
 * Whether this machine lets the tests mount a small tmpfs (`mount -t tmpfs`, which needs root or
 * CAP_SYS_ADMIN): the real thing for "the disk is full". Tried once, on a scratch folder, in a mount
 * namespace of its own (`unshare -m`, private): a mount made and dropped in the machine's namespace
 * while another test file started a bubblewrap sandbox failed that sandbox's set-up ("Can't bind
 * mount /oldroot/ … No such file or directory"), as bwrap copies every mount there is.
 */
export function canMountTmpfs(): boolean {
  if (process.platform !== "linux") return false;
  const dir = mkdtempSync(join(tmpdir(), "agentry-tmpfs-probe-"));
  try {
    const probe = ["-m", "mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", dir];
    return spawnSync("unshare", probe, { stdio: "ignore" }).status === 0;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export const TMPFS_MISSING =
  "mounting a tmpfs (mount -t tmpfs -o size=1m tmpfs <dir>) is not allowed here: the full-disk tests need root or CAP_SYS_ADMIN on Linux; under CI=true they fail instead of skipping.";

/**
 * A fresh folder that is a tmpfs of `size` (e.g. "1m"): a disk that fills up for real. Unmounted and
 * removed when the test finishes. Only inside a test.
 */
export async function tmpfsDir(size: string): Promise<string> {
  const dir = await realpath(await mkdtemp(join(tmpdir(), "agentry-tmpfs-")));
  const mounted = spawnSync("mount", ["-t", "tmpfs", "-o", `size=${size}`, "tmpfs", dir], {
    encoding: "utf8",
  });
  if (mounted.status !== 0) throw new Error(`mount -t tmpfs on ${dir} failed: ${mounted.stderr.trim()}`);
  onTestFinished(async () => {
    // lazy: a process the test killed may still hold a file open there.
    spawnSync("umount", ["-l", dir], { stdio: "ignore" });
    await rm(dir, { recursive: true, force: true, maxRetries: 3 });
  });
  return dir;
}

/** Makes the tmpfs at `dir` (from `tmpfsDir`) read-only: every write there fails with EROFS. */
export function remountReadOnly(dir: string): void {
  const remounted = spawnSync("mount", ["-o", "remount,ro", dir], { encoding: "utf8" });
  if (remounted.status !== 0)
    throw new Error(`mount -o remount,ro ${dir} failed: ${remounted.stderr.trim()}`);
}

/** Fills the file system of `dir` to the last byte with a file there (written until ENOSPC). */
export function fillDisk(dir: string): void {
  spawnSync("sh", ["-c", `cat /dev/zero > "${join(dir, "filler")}"`], { stdio: "ignore" });
}
