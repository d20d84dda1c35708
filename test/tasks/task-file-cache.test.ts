import { utimes } from "node:fs/promises";
import { join } from "node:path";
import { beforeEach, expect, it } from "vitest";
import { TaskFileCache } from "../../src/tasks/stored/task-file-cache.ts";
import { WorkspaceTaskStore } from "../../src/tasks/workspace/workspace-task-store.ts";
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
