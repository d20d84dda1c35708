import { execFileSync } from "node:child_process";
import { mkdir, readdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { hostname } from "node:os";
import { join } from "node:path";
import { expect, it } from "vitest";
import { formatIdentity, localProcess } from "../../src/state/process-identity.ts";
import { acquireFileLock, lockPathOf } from "../../src/tasks/workspace/file-lock.ts";
import { tempDir } from "../support/temp-dir.ts";
import { deadPid } from "./support/dead-pid.ts";
import { pipeLock } from "./support/lock-pipe.ts";

// Another process's step between two of the lock's own, put exactly there: the lock file is a pipe
// (see lock-pipe.ts), so the code waits in its read of the lock until the test has taken its step.

const lockContent = (owner: string) => JSON.stringify({ owner, token: "t", at: new Date().toISOString() });
const deadOwnerLock = async () => lockContent(formatIdentity(localProcess(await deadPid())));
const liveOwnerLock = () => lockContent(`${hostname()}:${process.pid}`);
// Neither by age nor by waiting: only what the test does decides.
const patient = { staleMs: 3_600_000, timeoutMs: 3_600_000 };

it("puts back a lock it moved aside to break that is not the one it judged (its content changed)", async () => {
  const dir = await tempDir();
  const path = join(dir, "f.json");
  const lock = await pipeLock(lockPathOf(path));
  const dead = await deadOwnerLock();
  const acquiring = acquireFileLock(path, patient);
  await lock.feed(dead); // its look at the lock: the holder is dead, so it moves the lock aside...
  await lock.feed(liveOwnerLock()); // ...and reads what it moved: not what it judged, so it puts it back
  // It looks at the lock again, the one it put back; without the put-back it would hold the lock now.
  const next = await Promise.race([
    acquiring.then(() => "took the lock"),
    lock.feed(dead).then(() => "looked again"),
  ]);
  if (next !== "looked again") await lock.unblock();
  expect(next).toBe("looked again");
  await lock.feed(dead); // moved aside again, and this time it is the lock judged dead: removed
  const release = await acquiring;
  // Nothing moved aside is left behind (nor the draft of its own lock).
  expect(await readdir(dir)).toEqual(["f.json.lock"]);
  await release();
  expect(await readdir(dir)).toEqual([]);
});

it("takes the lock when a dead holder's lock is gone before it could move it aside", async () => {
  const dir = await tempDir();
  const path = join(dir, "f.json");
  const lock = await pipeLock(lockPathOf(path));
  const acquiring = acquireFileLock(path, patient);
  // While it reads the dead holder's lock, another waiter breaks that lock first.
  await lock.feed(await deadOwnerLock(), () => rm(lockPathOf(path)));
  const release = await acquiring;
  expect(JSON.parse(await readFile(lockPathOf(path), "utf8"))).toMatchObject({ owner: expect.any(String) });
  expect(await readdir(dir)).toEqual(["f.json.lock"]);
  await release();
});

it("fails with the file system's error, instead of retrying, when the lock's folder goes while it waits", async () => {
  const dir = join(await tempDir(), "tasks");
  await mkdir(dir);
  const path = join(dir, "f.json");
  const lock = await pipeLock(lockPathOf(path));
  const acquiring = acquireFileLock(path, patient);
  await lock.feed(await deadOwnerLock(), () => rm(dir, { recursive: true }));
  // The error of the step that failed (taking the lock), not of the clean-up after it.
  await expect(acquiring).rejects.toMatchObject({ code: "ENOENT", syscall: "link" });
});

it("releases without error when its lock is removed by another between the check and the removal", async () => {
  const dir = await tempDir();
  const path = join(dir, "f.json");
  const release = await acquireFileLock(path);
  const ours = await readFile(lockPathOf(path), "utf8");
  // Our lock, the same content, as a pipe: release reads it, and the test removes it meanwhile.
  const aside = join(dir, "pipe-lock");
  const lock = await pipeLock(aside);
  await rename(aside, lockPathOf(path));
  const releasing = release();
  await lock.feed(ours, () => rm(lockPathOf(path)));
  await expect(releasing).resolves.toBeUndefined();
  expect(await readdir(dir)).toEqual([]);
});

it("refuses a symbolic link in the lock's place (a repository can commit one) instead of following it", async () => {
  const dir = await tempDir();
  const path = join(dir, "f.json");
  const target = join(dir, "elsewhere");
  await writeFile(target, liveOwnerLock());
  for (const [points, to] of [
    ["nowhere", join(dir, "missing")],
    ["to a file", target],
    ["to a device", "/dev/zero"],
  ] as const) {
    execFileSync("ln", ["-sfn", to, lockPathOf(path)]);
    await expect(acquireFileLock(path, patient), points).rejects.toThrow(
      `The lock ${lockPathOf(path)} is a symbolic link, which agentry never makes: remove it.`,
    );
    expect((await readdir(dir)).sort(), points).toEqual(["elsewhere", "f.json.lock"]);
  }
});
