import { mkdir, readFile, rename, utimes } from "node:fs/promises";
import { join } from "node:path";
import { beforeEach, expect, it } from "vitest";
import { parseTaskFile } from "../../src/tasks/stored/task-file.ts";
import { TaskFileCache } from "../../src/tasks/stored/task-file-cache.ts";
import { TaskFileError } from "../../src/tasks/task-errors.ts";
import { WorkspaceTaskStore } from "../../src/tasks/workspace/workspace-task-store.ts";
import { openedHere } from "../support/open-descriptors.ts";
import { tempDir } from "../support/temp-dir.ts";
import { newTask } from "./task-store.conformance.ts";

// The cache a store keeps of the task files it read: reused while a file is unchanged, read again once
// another process replaced it. Files are written by a real store, as another process would.

let workspace: string;
let path: string;
beforeEach(async () => {
  workspace = await tempDir("agentry-task-cache-");
  path = join(workspace, ".agentry/agents/main/tasks/s1.json");
});

/** Makes the file old enough that its stat identifies its content (a young one is always read again). */
const age = () => utimes(path, new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));

it("reads a file again once another process replaced it, even when it was cached as old", async () => {
  const writer = new WorkspaceTaskStore({ workspace });
  await writer.create(newTask("t1"));
  await age();
  const cache = new TaskFileCache();
  expect((await cache.load(path))?.map((record) => record.status)).toEqual(["PENDING"]);
  // Cached as old and unchanged: a load now trusts the stat.
  expect((await cache.load(path, { sync: true }))?.map((record) => record.status)).toEqual(["PENDING"]);

  await writer.update("t1", { status: "RUNNING" });
  await age();

  expect((await cache.load(path))?.map((record) => record.status)).toEqual(["RUNNING"]);
  await writer.update("t1", { status: "COMPLETED", result: "r" });
  await age();
  expect((await cache.load(path, { sync: true }))?.map((record) => record.status)).toEqual(["COMPLETED"]);
  expect(cache.locate("t1")).toBe(path);
});

it("hands out frozen records, nested fields too: a caller cannot change what the next load returns", async () => {
  const writer = new WorkspaceTaskStore({ workspace });
  await writer.create(newTask("t1", { status: "RUNNING", agentPath: ["main", "t1"] }));
  await writer.update("t1", {
    usage: { input: 1, output: 2, cacheRead: 0, cacheWrite: 0 },
    activity: { turns: 1, tokensIn: 1, tokensOut: 2, tools: [] },
  });
  await writer.sendMessage("t1", { id: "m1", text: "hello", at: new Date().toISOString() });
  const [record] = (await new TaskFileCache().load(path)) ?? [];

  expect(record).toBeDefined();
  expect(Object.isFrozen(record)).toBe(true);
  for (const field of ["usage", "agentPath", "activity", "inbox"] as const) {
    expect(record?.[field], field).toBeDefined();
    expect(Object.isFrozen(record?.[field]), field).toBe(true);
  }
});

it("says a file that is not there is not there, and forgets it", async () => {
  const cache = new TaskFileCache();
  expect(await cache.load(path)).toBeUndefined();
  expect(await cache.load(path, { sync: true })).toBeUndefined();
});

it.each([
  ["just written (read again each time)", false],
  ["old (trusted by its stat)", true],
])("hands back the same records for a file %s and unchanged, and keeps no file open", async (_, old) => {
  const writer = new WorkspaceTaskStore({ workspace });
  await writer.create(newTask("t1"));
  if (old) await age();
  const cache = new TaskFileCache();
  const first = await cache.load(path);
  expect(first?.map((record) => record.taskId)).toEqual(["t1"]);
  // The watch tells an unchanged file by this: the same array, not an equal one.
  expect(await cache.load(path)).toBe(first);
  expect(await cache.load(path, { sync: true })).toBe(first);
  expect(openedHere([path])).toEqual([]);
});

it("says a file it had cached as old is gone once it was removed", async () => {
  const writer = new WorkspaceTaskStore({ workspace });
  await writer.create(newTask("t1"));
  await age();
  for (const sync of [false, true]) {
    const cache = new TaskFileCache();
    expect(await cache.load(path, { sync })).toHaveLength(1);
    await rename(path, `${path}.away`);
    expect(await cache.load(path, { sync })).toBeUndefined();
    await rename(`${path}.away`, path);
  }
});

it("takes a file it cannot open for an error naming it, never for a file that is not there", async () => {
  const writer = new WorkspaceTaskStore({ workspace });
  await writer.create(newTask("t1"));
  // A path through a file (ENOTDIR): it cannot be opened, yet nobody showed it is gone.
  const blocked = join(path, "s2.json");
  for (const sync of [false, true]) {
    const load = new TaskFileCache().load(blocked, { sync });
    await expect(load).rejects.toThrow(TaskFileError);
    await expect(load).rejects.toThrow(`Cannot read task file ${blocked}: ENOTDIR`);
  }
  // Under the lock, a write reads the file afresh: a folder in its place stops the write, named.
  const session = join(workspace, ".agentry/agents/main/tasks/s3.json");
  await mkdir(session);
  const create = writer.create(newTask("t3", { parentSessionId: "s3" }));
  await expect(create).rejects.toThrow(TaskFileError);
  await expect(create).rejects.toThrow(`Cannot read task file ${session}: EISDIR`);
});

it("knows a file this process wrote: where its tasks are, and its records, without reading them again", async () => {
  await new WorkspaceTaskStore({ workspace }).create(newTask("t1"));
  const text = await readFile(path, "utf8");
  const records = await parseTaskFile(text, path);
  const cache = new TaskFileCache();
  cache.wrote(path, records, text);
  expect(cache.locate("t1")).toBe(path);
  // The file still holds what was written: the records given are handed back, not parsed anew.
  expect(await cache.load(path)).toBe(records);
});
