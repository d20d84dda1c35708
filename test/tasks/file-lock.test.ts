import { readFile, stat, utimes, writeFile } from "node:fs/promises";
import { hostname } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { expect, it } from "vitest";
import { formatIdentity, localProcess } from "../../src/state/process-identity.ts";
import { LockTimeoutError } from "../../src/tasks/task-errors.ts";
import { acquireFileLock, lockPathOf, withFileLock } from "../../src/tasks/workspace/file-lock.ts";
import { tempDir } from "../support/temp-dir.ts";
import { scaled } from "../support/time-scale.ts";
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
