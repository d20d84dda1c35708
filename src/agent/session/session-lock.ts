import { randomBytes } from "node:crypto";
import {
  linkSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  unlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { AgentryError } from "../../errors/agentry-error.ts";
import { diskFullError } from "../../state/disk-full.ts";
import {
  currentProcess,
  formatIdentity,
  identityLabel,
  parseIdentity,
  processLiveness,
} from "../../state/process-identity.ts";

/**
 * One process at a time writes a session: `<id>.lock` beside the transcript names its holder. The
 * lock is taken when a session is created or resumed and released by `Session.close()`; a holder
 * that died leaves it behind, and the next process breaks it.
 */

/** How often a holder touches its lock, so a process that cannot check it can still see it live. */
export const LOCK_HEARTBEAT_MS = 10_000;
/** A lock whose holder cannot be checked (another host or pid namespace) and silent this long is stale. */
export const LOCK_STALE_MS = 60_000;

interface LockContent {
  holder: string;
  token: string;
  since: string;
}

export class SessionBusyError extends AgentryError {
  override readonly name = "SessionBusyError";
  readonly kind = "user";
  constructor(id: string, holder: string, since: string, lockPath: string) {
    super(
      `Session "${id}" is in use by another agentry process (${identityLabel(holder)}, since ${since}): two runs would interleave one transcript. ` +
        `Wait for it to finish, or start a new session. If that process is gone (it ran in another container or on another machine), delete ${lockPath}.`,
    );
  }
}

export interface SessionLock {
  /** Throws when another process has taken the lock (it judged this one gone): writing now would interleave. */
  assertHeld(): void;
  /** Gives the lock up (idempotent). */
  release(): void;
}

/**
 * Takes the lock of session `id` at `lockPath`, or throws `SessionBusyError` naming its live holder. A
 * lock held by this very process is shared (two `Session` objects of one id in one process, as tests
 * and library code make). A holder proven dead is replaced at once; one that cannot be checked, once
 * its lock has not been touched for `LOCK_STALE_MS`.
 */
export function acquireSessionLock(id: string, lockPath: string): SessionLock {
  const holder = formatIdentity(currentProcess());
  const content: LockContent = {
    holder,
    token: randomBytes(8).toString("hex"),
    since: new Date().toISOString(),
  };
  for (let attempt = 0; attempt < 3; attempt++) {
    if (create(lockPath, content)) return held(lockPath, content.token);
    const existing = readLock(lockPath);
    if (existing === undefined) continue; // released meanwhile, or not ours to judge yet: try again
    if (existing.holder === holder) return held(lockPath, existing.token, false);
    if (!isStale(existing, lockPath))
      throw new SessionBusyError(id, existing.holder, existing.since, lockPath);
    breakLock(lockPath, existing.token);
  }
  const existing = readLock(lockPath);
  throw new SessionBusyError(id, existing?.holder ?? "unknown", existing?.since ?? "unknown", lockPath);
}

/** Creates the lock whole: written to a private file, then hard-linked into place (fails if it exists). */
function create(lockPath: string, content: LockContent): boolean {
  const draft = `${lockPath}.${process.pid}.${content.token}.draft`;
  try {
    writeFileSync(draft, JSON.stringify(content));
  } catch (error) {
    rmSync(draft, { force: true });
    throw diskFullError(error, lockPath) ?? error;
  }
  try {
    linkSync(draft, lockPath);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  } finally {
    unlinkSync(draft);
  }
}

function held(lockPath: string, token: string, own = true): SessionLock {
  let released = false;
  const timer = own
    ? setInterval(() => {
        const now = new Date();
        try {
          if (readLock(lockPath)?.token === token) utimesSync(lockPath, now, now);
        } catch {
          // The next write's assertHeld says what went wrong.
        }
      }, LOCK_HEARTBEAT_MS)
    : undefined;
  timer?.unref();
  return {
    assertHeld() {
      if (released)
        throw new Error(`the session lock ${lockPath} was released; this session can no longer write.`);
      const current = readLock(lockPath);
      if (current?.token === token) return;
      throw new Error(
        `the session lock ${lockPath} was taken by ${current ? identityLabel(current.holder) : "nobody (it is gone)"}, which judged this process gone; this process stops writing the transcript.`,
      );
    },
    release() {
      if (released) return;
      released = true;
      clearInterval(timer);
      if (own && readLock(lockPath)?.token === token) {
        try {
          unlinkSync(lockPath);
        } catch {
          // Already gone.
        }
      }
    },
  };
}

/**
 * Whether a live process holds the session lock at `lockPath` (one that is stale, or no lock, is not
 * held): what must not be touched, e.g. by `agentry sessions prune`.
 */
export function sessionLockHeld(lockPath: string): boolean {
  const lock = readLock(lockPath);
  return lock !== undefined && !isStale(lock, lockPath);
}

function isStale(lock: LockContent, lockPath: string): boolean {
  const identity = parseIdentity(lock.holder);
  const liveness = identity ? processLiveness(identity) : "unknown";
  if (liveness !== "unknown") return liveness === "dead";
  try {
    return Date.now() - statSync(lockPath).mtimeMs > LOCK_STALE_MS;
  } catch {
    return false;
  }
}

/**
 * Removes a stale lock. It is first renamed aside (only one breaker can), and put back if what was
 * moved is not the lock judged stale (a new holder took it in between).
 */
function breakLock(lockPath: string, staleToken: string): void {
  const aside = `${lockPath}.${process.pid}.${randomBytes(4).toString("hex")}.stale`;
  try {
    renameSync(lockPath, aside);
  } catch {
    return;
  }
  try {
    if (readLock(aside)?.token !== staleToken) linkSync(aside, lockPath);
  } catch {
    // A third process took the lock meanwhile: the moved one's holder finds out at its next write.
  } finally {
    unlinkSync(aside);
  }
}

function readLock(path: string): LockContent | undefined {
  try {
    const value: unknown = JSON.parse(readFileSync(path, "utf8"));
    if (typeof value !== "object" || value === null) return undefined;
    const { holder, token, since } = value as Record<string, unknown>;
    return typeof holder === "string" && typeof token === "string" && typeof since === "string"
      ? { holder, token, since }
      : undefined;
  } catch {
    return undefined;
  }
}
