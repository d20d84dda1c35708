import { randomBytes } from "node:crypto";
import { constants, type Stats } from "node:fs";
import { link, lstat, readFile, rename, rm, writeFile } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { diskFullError } from "../../state/disk-full.ts";
import { currentOwner, ownerLiveness } from "../owner.ts";
import { LockTimeoutError, TaskStoreError } from "../task-errors.ts";

/**
 * A cross-process lock on one file: `<path>.lock`, holding `{ owner, token, at }`, created by
 * hard-linking a fully written draft into place (`link` is atomic and fails if the lock exists). Waiters retry with
 * jittered backoff. A lock whose owner process is dead (same host) or that is older than `staleMs`
 * is broken; critical sections are a read-modify-write of one small file, so an old lock is an
 * abandoned one.
 */
export interface FileLockOptions {
  /** A lock older than this is abandoned and broken (default 10 s). */
  staleMs: number;
  /** Give up with `LockTimeoutError` after this long (default 30 s; keep it above `staleMs`). */
  timeoutMs: number;
  /** `<host>:<pid>` written into the lock, for the liveness check and for error messages. */
  owner: string;
}

export const DEFAULT_LOCK_OPTIONS: Readonly<Omit<FileLockOptions, "owner">> = {
  staleMs: 10_000,
  timeoutMs: 30_000,
};

export function lockPathOf(path: string): string {
  return `${path}.lock`;
}

/** Runs `fn` while holding the lock on `path`; the lock is released however `fn` ends. */
export async function withFileLock<T>(
  path: string,
  fn: () => Promise<T>,
  options: Partial<FileLockOptions> = {},
): Promise<T> {
  const release = await acquireFileLock(path, options);
  try {
    return await fn();
  } finally {
    await release();
  }
}

/** Takes the lock on `path` and returns its release function. */
export async function acquireFileLock(
  path: string,
  options: Partial<FileLockOptions> = {},
): Promise<() => Promise<void>> {
  const { staleMs, timeoutMs, owner } = { ...DEFAULT_LOCK_OPTIONS, owner: currentOwner(), ...options };
  const lockPath = lockPathOf(path);
  const content = JSON.stringify({
    owner,
    token: randomBytes(8).toString("hex"),
    at: new Date().toISOString(),
  });
  // The lock is born complete: its content is written to a private file first, which is then
  // hard-linked into place (atomic, and failing if the lock exists). Creating the lock and writing
  // it afterwards would leave an empty lock, breakable only by age, if the holder died in between.
  const draft = join(
    dirname(lockPath),
    `.${basename(lockPath)}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`,
  );
  try {
    await writeFile(draft, content, { flag: "wx" });
  } catch (error) {
    await rm(draft, { force: true });
    // Named as the file whose write needed the lock: that is the write the disk could not take.
    throw diskFullError(error, path) ?? error;
  }
  try {
    const started = Date.now();
    for (let attempt = 0; ; attempt++) {
      if (await tryLink(draft, lockPath)) return () => release(lockPath, content);
      const holder = await inspect(lockPath);
      if (!holder) continue; // released between our attempt and the look: try again at once
      if (holder.ownerDead || Date.now() - holder.mtimeMs > staleMs) {
        await breakLock(lockPath, holder);
        continue;
      }
      const waited = Date.now() - started;
      if (waited > timeoutMs)
        throw new LockTimeoutError(lockPath, holder.owner ?? "an unknown process", waited);
      await sleep(Math.min(50, 2 * 2 ** Math.min(attempt, 5)) * (0.5 + Math.random()));
    }
  } finally {
    await rm(draft, { force: true });
  }
}

async function tryLink(draft: string, lockPath: string): Promise<boolean> {
  try {
    await link(draft, lockPath);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  }
}

interface Holder {
  ino: number;
  mtimeMs: number;
  raw: string;
  owner: string | undefined;
  ownerDead: boolean;
}

async function inspect(lockPath: string): Promise<Holder | undefined> {
  try {
    const { info, raw } = await look(lockPath);
    const owner = ownerOf(raw);
    // A lock without a readable owner (written by another tool, or truncated) can only be broken by age.
    return {
      ino: info.ino,
      mtimeMs: info.mtimeMs,
      raw,
      owner,
      ownerDead: !!owner && ownerLiveness(owner) === "dead",
    };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}

// Not through a link: a repository can commit a symbolic link as a lock. Followed, a dangling one
// looked like a lock released at every look (an endless busy retry, deaf to timeoutMs), and a link
// to /dev/zero or a pipe would be read without end.
const READ_NOT_THROUGH_LINK = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0);

/** The lock file itself (not what a link there points at) and its content. */
async function look(path: string): Promise<{ info: Stats; raw: string }> {
  try {
    const [info, raw] = await Promise.all([
      lstat(path),
      readFile(path, { encoding: "utf8", flag: READ_NOT_THROUGH_LINK }),
    ]);
    return { info, raw };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ELOOP") throw error;
    throw new TaskStoreError(`The lock ${path} is a symbolic link, which agentry never makes: remove it.`, {
      cause: error,
    });
  }
}

function ownerOf(raw: string): string | undefined {
  try {
    const parsed: unknown = JSON.parse(raw);
    if (
      typeof parsed === "object" &&
      parsed !== null &&
      "owner" in parsed &&
      typeof parsed.owner === "string"
    ) {
      return parsed.owner;
    }
  } catch {
    // Not written yet.
  }
  return undefined;
}

/**
 * Two waiters may judge the same lock stale. Renaming it aside is atomic, so only one of them moves
 * it; the other's rename either fails (gone) or moves the fresh lock the winner just created. The
 * aside copy is compared with what was judged stale, and a fresh lock moved by mistake is linked
 * back (link fails rather than overwrite, if a third process took the lock in that instant).
 */
async function breakLock(lockPath: string, judged: Holder): Promise<void> {
  const aside = `${lockPath}.stale-${process.pid}-${randomBytes(4).toString("hex")}`;
  try {
    await rename(lockPath, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return;
    throw error;
  }
  try {
    const { info, raw } = await look(aside);
    if (info.ino !== judged.ino || raw !== judged.raw) await link(aside, lockPath).catch(() => undefined);
  } finally {
    await rm(aside, { force: true });
  }
}

/** Removes the lock only if it is still ours: if it was broken as stale, it now belongs to another. */
async function release(lockPath: string, content: string): Promise<void> {
  let raw: string;
  try {
    raw = await readFile(lockPath, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return;
    throw error;
  }
  if (raw === content) await rm(lockPath, { force: true });
}
