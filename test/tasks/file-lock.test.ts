import { readdir, readFile, stat, utimes, writeFile } from "node:fs/promises";
import { hostname } from "node:os";
import { dirname, join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { expect, it } from "vitest";
import { formatIdentity, localProcess } from "../../src/state/process-identity.ts";
import { LockTimeoutError } from "../../src/tasks/task-errors.ts";
import { acquireFileLock, lockPathOf, withFileLock } from "../../src/tasks/workspace/file-lock.ts";
import { describeNeeding } from "../support/components.ts";
import { tempDir } from "../support/temp-dir.ts";
import { scaled } from "../support/time-scale.ts";
import { canMountTmpfs, remountReadOnly, TMPFS_MISSING, tmpfsDir } from "../support/tmpfs.ts";
import { deadPid } from "./support/dead-pid.ts";

const lockContent = (owner: string) => JSON.stringify({ owner, token: "t", at: new Date().toISOString() });

it("lets one holder in at a time and removes the lock afterwards", async () => {
  const path = join(await tempDir(), "f.json");
  let inside = 0;
  let most = 0;
  await Promise.all(
    Array.from({ length: 10 }, () =>
      withFileLock(path, async () => {
        most = Math.max(most, ++inside);
        await sleep(3);
        inside--;
      }),
    ),
  );
  expect(most).toBe(1);
  await expect(stat(lockPathOf(path))).rejects.toThrow(/ENOENT/);
});

it("releases the lock when the critical section throws", async () => {
  const path = join(await tempDir(), "f.json");
  await expect(withFileLock(path, () => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
  await expect(withFileLock(path, async () => "again")).resolves.toBe("again");
});

it("breaks a lock whose owner process is dead, at once", async () => {
  const path = join(await tempDir(), "f.json");
  await writeFile(lockPathOf(path), lockContent(formatIdentity(localProcess(await deadPid()))));
  // It gives up long before the lock would be stale: getting in, it broke the lock for its dead owner.
  await expect(
    withFileLock(path, async () => "entered", { staleMs: 3_600_000, timeoutMs: scaled(5_000) }),
  ).resolves.toBe("entered");
});

it("breaks a lock older than staleMs even when its owner cannot be checked (another host)", async () => {
  const path = join(await tempDir(), "f.json");
  await writeFile(lockPathOf(path), lockContent("elsewhere:1"));
  // Fresh, the same lock holds: its owner cannot be checked, so it counts as alive.
  await expect(
    withFileLock(path, async () => "entered", { staleMs: 10_000, timeoutMs: 200 }),
  ).rejects.toThrow(LockTimeoutError);
  const old = new Date(Date.now() - 60_000);
  await utimes(lockPathOf(path), old, old);
  await expect(
    withFileLock(path, async () => "entered", { staleMs: 10_000, timeoutMs: scaled(1000) }),
  ).resolves.toBe("entered");
  await expect(stat(lockPathOf(path))).rejects.toThrow(/ENOENT/);
});

it("waits for a live holder and then gets in", async () => {
  const path = join(await tempDir(), "f.json");
  const release = await acquireFileLock(path);
  const order: string[] = [];
  const waiter = withFileLock(path, async () => order.push("waiter"));
  await sleep(100);
  order.push("holder releases");
  await release();
  await waiter;
  expect(order).toEqual(["holder releases", "waiter"]);
});

it("times out on a live, fresh lock with an error naming the lock and its holder", async () => {
  const path = join(await tempDir(), "f.json");
  await writeFile(lockPathOf(path), lockContent(`${hostname()}:${process.pid}`));
  const attempt = withFileLock(path, async () => undefined, { timeoutMs: 200, staleMs: 60_000 });
  await expect(attempt).rejects.toThrow(LockTimeoutError);
  await expect(attempt).rejects.toThrow(`${lockPathOf(path)} (held by ${hostname()}:${process.pid})`);
});

it("treats a lock without a readable owner as live until it is stale", async () => {
  const path = join(await tempDir(), "f.json");
  await writeFile(lockPathOf(path), "");
  await expect(
    withFileLock(path, async () => undefined, { timeoutMs: 150, staleMs: 60_000 }),
  ).rejects.toThrow(/held by an unknown process/);
});

it("does not remove a lock that was broken and taken by someone else in the meantime", async () => {
  const path = join(await tempDir(), "f.json");
  const release = await acquireFileLock(path);
  const theirs = lockContent("elsewhere:2");
  await writeFile(lockPathOf(path), theirs);
  await release();
  expect(await readFile(lockPathOf(path), "utf8")).toBe(theirs);
});

it("fails clearly when the directory does not exist", async () => {
  const path = join(await tempDir(), "missing", "f.json");
  await expect(withFileLock(path, async () => undefined)).rejects.toThrow(/ENOENT/);
});

it("lets every contender in when many take the lock and let it go at once", async () => {
  // Each holder lets go at once, so waiters often find the lock gone between their try and their
  // look at the holder: that is a lock released, to try again, not an error.
  const path = join(await tempDir(), "f.json");
  let entered = 0;
  for (let round = 0; round < 10; round++) {
    await Promise.all(Array.from({ length: 16 }, () => withFileLock(path, async () => void entered++)));
  }
  expect(entered).toBe(10 * 16);
  expect(await readdir(dirname(path))).toEqual([]);
});

it("names the holder a lock was taken by, in a waiter's timeout", async () => {
  const path = join(await tempDir(), "f.json");
  const release = await acquireFileLock(path, { owner: "build-host:42" });
  await expect(
    withFileLock(path, async () => undefined, { timeoutMs: 100, staleMs: 60_000 }),
  ).rejects.toThrow(`${lockPathOf(path)} (held by build-host:42)`);
  // The waiter that gave up leaves nothing behind: only the holder's lock is there.
  expect(await readdir(dirname(path))).toEqual(["f.json.lock"]);
  await release();
});

it("reads an owner that is not a string as no owner: live until stale", async () => {
  const path = join(await tempDir(), "f.json");
  for (const content of ['{"owner":42}', '{"owner":["host:1"]}', "[]", "42", "null", '"host:1"']) {
    await writeFile(lockPathOf(path), content);
    await expect(
      withFileLock(path, async () => undefined, { timeoutMs: 100, staleMs: 60_000 }),
      content,
    ).rejects.toThrow(/held by an unknown process/);
  }
});

it("breaks a lock older than 10 s with the default options", async () => {
  const path = join(await tempDir(), "f.json");
  await writeFile(lockPathOf(path), lockContent("elsewhere:1"));
  const old = new Date(Date.now() - 60_000);
  await utimes(lockPathOf(path), old, old);
  await expect(withFileLock(path, async () => "entered")).resolves.toBe("entered");
});

describeNeeding(
  { present: canMountTmpfs(), what: "a tmpfs mount", missing: TMPFS_MISSING },
  "a lock on a read-only file system",
  () => {
    it("fails with the file system's own error (not the clean-up's)", async () => {
      const dir = await tmpfsDir("64k");
      remountReadOnly(dir);
      await expect(withFileLock(join(dir, "f.json"), async () => undefined)).rejects.toMatchObject({
        code: "EROFS",
      });
    });
  },
);
