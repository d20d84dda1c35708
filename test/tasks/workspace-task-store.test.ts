import { mkdir, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { serializeTaskFile } from "../../src/tasks/stored/task-file.ts";
import {
  LockTimeoutError,
  TaskExistsError,
  TaskFileError,
  TaskNotFoundError,
} from "../../src/tasks/task-errors.ts";
import { acquireFileLock } from "../../src/tasks/workspace/file-lock.ts";
import { taskFilePath } from "../../src/tasks/workspace/workspace-layout.ts";
import { WorkspaceTaskStore } from "../../src/tasks/workspace/workspace-task-store.ts";
import { tempDir } from "../support/temp-dir.ts";
import { newTask, taskStoreConformance } from "./task-store.conformance.ts";

taskStoreConformance("workspace files", async () => {
  const workspace = await tempDir("agentry-tasks-");
  const file = (agent: string, session: string) =>
    join(workspace, ".agentry/agents", agent, "tasks", `${session}.json`);
  return {
    open: (options = {}) => new WorkspaceTaskStore({ workspace, ...options }),
    async writeRaw(agent, session, text) {
      const path = file(agent, session);
      await mkdir(dirname(path), { recursive: true });
      await writeFile(path, text);
      return path;
    },
    readRaw: (agent, session) => readFile(file(agent, session), "utf8"),
  };
});

describe("WorkspaceTaskStore, beyond the contract", () => {
  let workspace: string;
  let store: WorkspaceTaskStore;
  const fileOf = (session: string) => taskFilePath(workspace, "main", session);
  beforeEach(async () => {
    workspace = await tempDir("agentry-tasks-");
    store = new WorkspaceTaskStore({ workspace });
  });

  /** Holds the lock of `session`'s file until the returned release; `waiters` counts who waits for it. */
  async function holdLock(session: string) {
    await mkdir(dirname(fileOf(session)), { recursive: true });
    const release = await acquireFileLock(fileOf(session));
    // A waiter for a lock keeps the draft of its own lock beside it while it waits.
    const waiters = async () =>
      (await readdir(dirname(fileOf(session)))).filter((name) => name.startsWith(`.${session}.json.lock.`))
        .length;
    const until = async (count: number) => {
      while ((await waiters()) < count) await new Promise((resolve) => setImmediate(resolve));
    };
    return { release, until };
  }

  it("removeFinished removes the named finished records, deletes a file left empty, and keeps the rest", async () => {
    await store.create(newTask("done-1", { parentSessionId: "s1", status: "COMPLETED" }));
    await store.create(newTask("done-2", { parentSessionId: "s1", status: "CANCELLED" }));
    await store.create(newTask("running", { parentSessionId: "s1", status: "RUNNING" }));
    await store.create(newTask("done-unnamed", { parentSessionId: "s1", status: "COMPLETED" }));
    await store.create(newTask("failed", { parentSessionId: "s2", status: "FAILED" }));
    const removed = await store.removeFinished(["done-1", "done-2", "running", "failed", "unknown"]);
    expect(removed.map((record) => record.taskId).sort()).toEqual(["done-1", "done-2", "failed"]);
    // Another process sees the same: a session file keeps what was not removed, an emptied one is gone.
    const other = new WorkspaceTaskStore({ workspace });
    expect((await other.list()).map((record) => record.taskId).sort()).toEqual(["done-unnamed", "running"]);
    expect(await readdir(dirname(fileOf("s1")))).toEqual(["s1.json"]);
    expect(await store.get("done-1")).toBeUndefined();
    expect((await store.get("running"))?.status).toBe("RUNNING");
  });

  it("removeFinished writes nothing to a file where nothing it names is finished", async () => {
    await store.create(newTask("running", { status: "RUNNING" }));
    const before = await stat(fileOf("s1"));
    expect(await store.removeFinished(["running"])).toEqual([]);
    expect((await stat(fileOf("s1"))).ino).toBe(before.ino);
  });

  it("writes nothing when a change leaves every record as it was", async () => {
    await store.create(newTask("done", { status: "COMPLETED" }));
    // A write replaces the file with a new one: its inode changes (checked after each step, as a
    // second write could be given the first one's freed inode back).
    const { ino } = await stat(fileOf("s1"));
    for (const [step, change] of [
      ["an empty patch", () => store.update("done", {})],
      ["a cancel of a finished task", () => store.requestCancel("done")],
      ["a heartbeat of a finished task", () => store.heartbeat(["done"])],
    ] as const) {
      await change();
      expect((await stat(fileOf("s1"))).ino, step).toBe(ino);
    }
  });

  it("passes its lock options to the lock (a short timeout gives up on a held lock)", async () => {
    await store.create(newTask("t"));
    const held = await holdLock("s1");
    const impatient = new WorkspaceTaskStore({ workspace, lock: { timeoutMs: 50, staleMs: 3_600_000 } });
    await expect(impatient.update("t", { status: "RUNNING" })).rejects.toBeInstanceOf(LockTimeoutError);
    await held.release();
  });

  it("an update that waited for the lock while its record was removed fails as not found", async () => {
    await store.create(newTask("t", { status: "COMPLETED" }));
    const held = await holdLock("s1");
    const updating = store.update("t", { description: "late" });
    await held.until(1); // it found the record's file and waits for its lock
    await writeFile(fileOf("s1"), serializeTaskFile([]));
    await held.release();
    await expect(updating).rejects.toBeInstanceOf(TaskNotFoundError);
  });

  it("refuses the second of two instances creating one id at once, under the file's lock", async () => {
    const held = await holdLock("s1");
    const [a, b] = [new WorkspaceTaskStore({ workspace }), new WorkspaceTaskStore({ workspace })];
    const creating = [a.create(newTask("same")), b.create(newTask("same"))];
    await held.until(2); // both looked for the id (nowhere yet) and wait to write it
    await held.release();
    const outcomes = await Promise.allSettled(creating);
    expect(outcomes.map((outcome) => outcome.status).sort()).toEqual(["fulfilled", "rejected"]);
    expect(outcomes.find((outcome) => outcome.status === "rejected")?.reason).toBeInstanceOf(TaskExistsError);
    expect(await a.list()).toHaveLength(1);
  });

  it("finds a record past an unreadable file, and forgets one whose file another process deleted", async () => {
    await store.create(newTask("good", { parentAgentId: "zeta" }));
    await mkdir(dirname(taskFilePath(workspace, "alpha", "s1")), { recursive: true });
    await writeFile(taskFilePath(workspace, "alpha", "s1"), "{ not json");
    // A fresh instance has no index: it scans, the unreadable file first.
    expect((await new WorkspaceTaskStore({ workspace }).get("good"))?.taskId).toBe("good");
    await rm(taskFilePath(workspace, "zeta", "s1"));
    await expect(store.get("good")).rejects.toBeInstanceOf(TaskFileError);
    await rm(taskFilePath(workspace, "alpha", "s1"));
    expect(await store.get("good")).toBeUndefined();
  });
});
