import { readFile } from "node:fs/promises";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { TASK_FILE_VERSION } from "../../src/tasks/stored/task-file.ts";
import {
  IllegalTransitionError,
  TaskExistsError,
  TaskFileError,
  TaskNotFoundError,
  TaskStoreError,
} from "../../src/tasks/task-errors.ts";
import type { NewTaskRecord, TaskRecord } from "../../src/tasks/task-record.ts";
import type { TaskStore } from "../../src/tasks/task-store.ts";

/**
 * The behaviour every TaskStore backend must have. A backend's test file calls
 * `taskStoreConformance("name", makeBackend)`; the suite never looks behind the interface except
 * through `writeRaw`/`readRaw`, which put and fetch the stored text of one parent session.
 */
export interface TaskStoreBackend {
  /** A new store instance over the same storage, as a second process would open it. */
  open(options?: { now?: () => Date }): TaskStore;
  /** Stores `text` as one parent session's records, bypassing the store; returns the location errors must name. */
  writeRaw(parentAgentId: string, parentSessionId: string, text: string): Promise<string>;
  readRaw(parentAgentId: string, parentSessionId: string): Promise<string>;
  /** Frees what is not a temp folder (a temp folder from `tempDir` goes by itself). */
  cleanup?(): Promise<void>;
}

const FIXTURE_V1 = new URL("./fixtures/tasks-v1.json", import.meta.url);
const T0 = Date.parse("2025-03-01T12:00:00.000Z");

export function newTask(taskId: string, overrides: Partial<NewTaskRecord> = {}): NewTaskRecord {
  return {
    taskId,
    agentType: "explore",
    parentAgentId: "main",
    parentSessionId: "s1",
    childSessionId: taskId,
    description: `task ${taskId}`,
    owner: "test-host:1",
    background: true,
    ...overrides,
  };
}

const at = (offsetMs: number) => new Date(T0 + offsetMs).toISOString();

export function taskStoreConformance(name: string, makeBackend: () => Promise<TaskStoreBackend>): void {
  describe(`TaskStore conformance: ${name}`, () => {
    let backend: TaskStoreBackend;
    let clock: number;
    let store: TaskStore;
    const open = () => backend.open({ now: () => new Date(clock) });

    beforeEach(async () => {
      backend = await makeBackend();
      clock = T0;
      store = open();
    });
    afterEach(() => backend.cleanup?.());

    describe("create and get", () => {
      it("fills the defaults and reads the record back, frozen", async () => {
        const created = await store.create(
          newTask("t1", { model: "anthropic:claude-haiku-4-5", agentPath: ["main", "explore-1"] }),
        );
        expect(created).toMatchObject({
          taskId: "t1",
          status: "PENDING",
          cancelRequested: false,
          createdAt: at(0),
          updatedAt: at(0),
        });
        expect(await store.get("t1")).toEqual(created);
        expect(await open().get("t1")).toEqual(created);
        expect(Object.isFrozen(await store.get("t1"))).toBe(true);
      });

      it("returns undefined for an unknown id", async () => {
        await store.create(newTask("t1"));
        expect(await store.get("nope")).toBeUndefined();
      });

      it("refuses a taken id, also from another instance and another session", async () => {
        await store.create(newTask("t1"));
        await expect(store.create(newTask("t1"))).rejects.toThrow(TaskExistsError);
        await expect(open().create(newTask("t1", { parentSessionId: "s2" }))).rejects.toThrow(
          /already exists/,
        );
      });

      it("rejects ids that could escape the store and invalid fields, naming them", async () => {
        await expect(store.create(newTask("t1", { parentSessionId: "../x" }))).rejects.toThrow(
          /parentSessionId/,
        );
        await expect(store.create(newTask("../t1"))).rejects.toThrow(TaskStoreError);
        await expect(store.get("a/b")).rejects.toThrow(/Invalid taskId/);
        const bad = { ...newTask("t2"), status: "DONE" } as unknown as NewTaskRecord;
        await expect(store.create(bad)).rejects.toThrow(/"status"/);
        expect(await store.list()).toEqual([]);
      });
    });

    describe("list", () => {
      beforeEach(async () => {
        await store.create(newTask("a", { createdAt: at(1000) }));
        await store.create(newTask("b", { createdAt: at(3000), status: "RUNNING" }));
        await store.create(newTask("c", { createdAt: at(2000), parentSessionId: "s2", status: "RUNNING" }));
        await store.create(
          newTask("d", { createdAt: at(4000), parentAgentId: "other", parentSessionId: "s3" }),
        );
      });
      const ids = (records: TaskRecord[]) => records.map((record) => record.taskId);

      it("orders newest first across sessions and agents", async () => {
        expect(ids(await store.list())).toEqual(["d", "b", "c", "a"]);
      });

      it("filters by status, session and agent, and limits after ordering", async () => {
        expect(ids(await store.list({ status: "RUNNING" }))).toEqual(["b", "c"]);
        expect(ids(await store.list({ status: ["PENDING", "COMPLETED"] }))).toEqual(["d", "a"]);
        expect(ids(await store.list({ parentSessionId: "s1" }))).toEqual(["b", "a"]);
        expect(ids(await store.list({ parentAgentId: "main" }))).toEqual(["b", "c", "a"]);
        expect(ids(await store.list({ parentAgentId: "other", parentSessionId: "s3" }))).toEqual(["d"]);
        expect(ids(await store.list({ parentSessionId: "missing" }))).toEqual([]);
        expect(ids(await store.list({ limit: 2 }))).toEqual(["d", "b"]);
      });

      it("rejects a bad limit or status with a clear error", async () => {
        await expect(store.list({ limit: 0 })).rejects.toThrow(/"limit" must be a positive integer/);
        await expect(store.list({ limit: 1.5 })).rejects.toThrow(/limit/);
        await expect(store.list({ status: "DONE" as never })).rejects.toThrow(/unknown status "DONE"/);
      });
    });

    describe("update", () => {
      beforeEach(() => store.create(newTask("t1")).then(() => undefined));

      it("applies a patch, bumps updatedAt, and returns the stored record", async () => {
        clock += 5000;
        const updated = await store.update("t1", { status: "RUNNING", owner: "test-host:2" });
        expect(updated).toMatchObject({
          status: "RUNNING",
          owner: "test-host:2",
          updatedAt: at(5000),
          createdAt: at(0),
        });
        expect(await open().get("t1")).toEqual(updated);
      });

      it("passes the current record to a function patch", async () => {
        await store.update("t1", { usage: { input: 1, output: 2, cacheRead: 0, cacheWrite: 0 } });
        const updated = await store.update("t1", (record) => ({
          usage: { ...record.usage!, input: record.usage!.input + 10 },
        }));
        expect(updated.usage?.input).toBe(11);
      });

      it("writes nothing for an empty or unchanged patch", async () => {
        const before = await backend.readRaw("main", "s1");
        clock += 5000;
        expect((await store.update("t1", {})).updatedAt).toBe(at(0));
        expect((await store.update("t1", { status: "PENDING" })).updatedAt).toBe(at(0));
        expect((await store.update("t1", () => ({}))).updatedAt).toBe(at(0));
        expect(await backend.readRaw("main", "s1")).toBe(before);
      });

      it("refuses changes to identity fields, invalid values and unknown ids", async () => {
        await expect(store.update("t1", { taskId: "t2" } as never)).rejects.toThrow(
          /"taskId" cannot be changed/,
        );
        await expect(store.update("t1", { parentSessionId: "s9" } as never)).rejects.toThrow(
          /cannot be changed/,
        );
        await expect(store.update("t1", { status: "DONE" } as never)).rejects.toThrow(/invalid "status"/);
        await expect(store.update("t1", { reason: "bored" } as never)).rejects.toThrow(
          /^Task t1: invalid "reason": .+\.$/,
        );
        await expect(store.update("t1", { usage: { input: "many" } } as never)).rejects.toThrow(
          /^Task t1: invalid "usage\.input": .+\.$/,
        );
        await expect(store.update("nope", { status: "RUNNING" })).rejects.toThrow(TaskNotFoundError);
        expect((await store.get("t1"))?.status).toBe("PENDING");
      });
    });

    describe("status transitions", () => {
      beforeEach(() => store.create(newTask("t1")).then(() => undefined));

      it("moves forward PENDING → RUNNING → COMPLETED", async () => {
        await store.update("t1", { status: "RUNNING" });
        const done = await store.update("t1", { status: "COMPLETED", result: "found it" });
        expect(done).toMatchObject({ status: "COMPLETED", result: "found it" });
        // A finished record still takes patches that keep its status (late usage, say).
        expect((await store.update("t1", { model: "m" })).model).toBe("m");
      });

      it("refuses to reopen or re-finish a finished task, saying how to resume", async () => {
        await store.update("t1", { status: "RUNNING" });
        await store.update("t1", { status: "COMPLETED", result: "r" });
        const reopen = store.update("t1", { status: "RUNNING" });
        await expect(reopen).rejects.toThrow(IllegalTransitionError);
        await expect(reopen).rejects.toThrow(/cannot go from COMPLETED to RUNNING.*resume/);
        await expect(store.update("t1", { status: "FAILED" })).rejects.toThrow(/already finished/);
        expect((await store.get("t1"))?.status).toBe("COMPLETED");
      });

      it("lets the owner of an orphaned task record how it really ended (reclaim), and nothing else", async () => {
        await store.update("t1", { status: "RUNNING" });
        await store.update("t1", { status: "FAILED", reason: "orphaned", error: "silent" });
        await store.markDelivered(["t1"]);
        await expect(store.update("t1", { status: "COMPLETED" })).rejects.toThrow(IllegalTransitionError);
        const done = await store.update("t1", { status: "COMPLETED", result: "real" }, { reclaim: true });
        expect(done).toMatchObject({ status: "COMPLETED", result: "real" });
        for (const key of ["error", "reason", "deliveredAt"] as const) expect(done).not.toHaveProperty(key);
        // Only an orphaned verdict can be reclaimed.
        const again = store.update("t1", { status: "FAILED" }, { reclaim: true });
        await expect(again).rejects.toThrow(IllegalTransitionError);
      });

      it("refuses to go back from RUNNING to PENDING, with resume too (only a finished task reopens)", async () => {
        await store.update("t1", { status: "RUNNING" });
        await expect(store.update("t1", { status: "PENDING" })).rejects.toThrow(/RUNNING to PENDING/);
        await expect(store.update("t1", { status: "PENDING" }, { resume: true })).rejects.toThrow(
          /RUNNING to PENDING/,
        );
      });

      it("lets a pending task end at once (it never started) and a running one end each way", async () => {
        const ends = ["COMPLETED", "FAILED", "CANCELLED"] as const;
        for (const [index, status] of ends.entries()) {
          await store.create(newTask(`p${index}`));
          expect((await store.update(`p${index}`, { status })).status).toBe(status);
          await store.create(newTask(`r${index}`, { status: "RUNNING" }));
          expect((await store.update(`r${index}`, { status })).status).toBe(status);
        }
      });

      it("takes a patch that repeats the current status as no transition: a finished task keeps taking them", async () => {
        await store.update("t1", { status: "RUNNING" });
        await store.update("t1", { status: "COMPLETED", result: "r" });
        const late = await store.update("t1", { status: "COMPLETED", model: "m" });
        expect(late).toMatchObject({ status: "COMPLETED", result: "r", model: "m" });
        // An identity field given as it already is changes nothing either.
        expect((await store.update("t1", { taskId: "t1", model: "n" } as never)).model).toBe("n");
      });

      it("keeps a requested cancel and the record's fields across a forward move", async () => {
        await store.update("t1", { status: "RUNNING", result: "partial" });
        await store.requestCancel("t1");
        const cancelled = await store.update("t1", { status: "CANCELLED" });
        expect(cancelled).toMatchObject({ status: "CANCELLED", cancelRequested: true, result: "partial" });
      });

      it("reopens a finished task as PENDING with resume", async () => {
        await store.update("t1", { status: "CANCELLED" });
        expect((await store.update("t1", { status: "PENDING" }, { resume: true })).status).toBe("PENDING");
      });

      // The types forbid it; a caller in plain JavaScript (or a spread of optional values) does not.
      it("reads a field given as undefined as not given: nothing changes, nothing is stored for it", async () => {
        await store.update("t1", { status: "RUNNING", result: "kept" });
        const before = await backend.readRaw("main", "s1");
        clock += 5000;
        expect((await store.update("t1", { result: undefined } as never)).updatedAt).toBe(at(0));
        expect(await backend.readRaw("main", "s1")).toBe(before);
        const moved = await store.update("t1", { status: "COMPLETED", error: undefined } as never);
        expect(moved).not.toHaveProperty("error");
        expect(await store.get("t1")).not.toHaveProperty("error");
      });

      it("reopens a finished task with resume, clearing what belonged to the previous run", async () => {
        await store.update("t1", { status: "RUNNING" });
        await store.update("t1", { status: "FAILED", error: "boom", reason: "timeout" });
        await store.requestCancel("t1");
        await store.markDelivered(["t1"]);
        const resumed = await store.update(
          "t1",
          { status: "RUNNING", owner: "test-host:9" },
          { resume: true },
        );
        expect(resumed.status).toBe("RUNNING");
        for (const key of ["error", "reason", "deliveredAt", "result"] as const)
          expect(resumed).not.toHaveProperty(key);
        expect(resumed.cancelRequested).toBe(false);
        expect(await store.get("t1")).toEqual(resumed);
      });
    });

    describe("requestCancel", () => {
      it("is visible to another instance and does not count as a heartbeat", async () => {
        await store.create(newTask("t1", { status: "RUNNING" }));
        clock += 60_000;
        const other = open();
        expect((await other.requestCancel("t1")).cancelRequested).toBe(true);
        const seen = await store.get("t1");
        expect(seen).toMatchObject({ cancelRequested: true, status: "RUNNING", updatedAt: at(0) });
      });

      it("leaves a finished task alone and throws for an unknown id", async () => {
        await store.create(newTask("t1", { status: "COMPLETED" }));
        expect((await store.requestCancel("t1")).cancelRequested).toBe(false);
        await expect(store.requestCancel("nope")).rejects.toThrow(TaskNotFoundError);
      });
    });

    describe("sendMessage", () => {
      const message = (id: string, text = `message ${id}`) => ({ id, text, at: at(1_000) });

      it("queues a message in order, visible to another instance, without counting as a heartbeat", async () => {
        await store.create(newTask("t1", { status: "RUNNING" }));
        clock += 60_000;
        const other = open();
        await other.sendMessage("t1", message("m1"));
        const after = await other.sendMessage("t1", message("m2"));
        expect(after.inbox?.map((queued) => queued.id)).toEqual(["m1", "m2"]);
        expect(await store.get("t1")).toMatchObject({
          updatedAt: at(0),
          inbox: [message("m1"), message("m2")],
        });
      });

      it("is taken out by the owner's update, leaving what arrived meanwhile", async () => {
        await store.create(newTask("t1", { status: "RUNNING" }));
        await store.sendMessage("t1", message("m1"));
        await open().sendMessage("t1", message("m2"));
        const taken = new Set(["m1"]);
        const after = await store.update("t1", (record) => ({
          inbox: (record.inbox ?? []).filter((queued) => !taken.has(queued.id)),
        }));
        expect(after.inbox).toEqual([message("m2")]);
      });

      it("queues nothing on a finished task, twice under one id, or past a full inbox", async () => {
        await store.create(newTask("done", { status: "COMPLETED" }));
        expect((await store.sendMessage("done", message("m1"))).inbox).toBeUndefined();
        await store.create(newTask("t1", { status: "RUNNING" }));
        await store.sendMessage("t1", message("m1", "first"));
        expect((await store.sendMessage("t1", message("m1", "again"))).inbox).toEqual([
          message("m1", "first"),
        ]);
        for (let i = 2; i <= 16; i++) await store.sendMessage("t1", message(`m${i}`));
        const full = await store.sendMessage("t1", message("m17"));
        expect(full.inbox).toHaveLength(16);
        expect(full.inbox?.some((queued) => queued.id === "m17")).toBe(false);
      });

      it("refuses an invalid message and throws for an unknown id", async () => {
        await store.create(newTask("t1", { status: "RUNNING" }));
        await expect(store.sendMessage("t1", message("m1", ""))).rejects.toThrow(TaskStoreError);
        await expect(store.sendMessage("t1", message("m1", ""))).rejects.toThrow(
          /^Task t1: invalid message "text": .+\.$/,
        );
        await expect(store.sendMessage("nope", message("m1"))).rejects.toThrow(TaskNotFoundError);
        expect((await store.get("t1"))?.inbox).toBeUndefined();
      });
    });

    describe("markDelivered", () => {
      it("marks each finished task once and returns only what it marked", async () => {
        await store.create(newTask("done", { status: "COMPLETED" }));
        await store.create(newTask("failed", { status: "FAILED", parentSessionId: "s2" }));
        await store.create(newTask("running", { status: "RUNNING" }));
        clock += 1000;
        const first = await store.markDelivered(["done", "failed", "running"]);
        expect(first.map((record) => record.taskId).sort()).toEqual(["done", "failed"]);
        clock += 1000;
        expect(await open().markDelivered(["done", "failed", "running"])).toEqual([]);
        expect((await store.get("done"))?.deliveredAt).toBe(at(1000));
        expect(await store.get("running")).not.toHaveProperty("deliveredAt");
      });

      it("throws for an unknown id before marking anything", async () => {
        await store.create(newTask("done", { status: "COMPLETED" }));
        await expect(store.markDelivered(["done", "nope"])).rejects.toThrow(TaskNotFoundError);
        expect(await store.get("done")).not.toHaveProperty("deliveredAt");
      });
    });

    describe("heartbeat", () => {
      it("bumps updatedAt of active tasks across sessions, not of finished ones", async () => {
        await store.create(newTask("r1", { status: "RUNNING" }));
        await store.create(newTask("r2", { status: "PENDING", parentSessionId: "s2" }));
        await store.create(newTask("c1", { status: "COMPLETED" }));
        clock += 30_000;
        const beaten = await store.heartbeat(["r1", "r2", "c1"]);
        expect(beaten.map((record) => record.taskId).sort()).toEqual(["r1", "r2"]);
        const other = open();
        expect((await other.get("r1"))?.updatedAt).toBe(at(30_000));
        expect((await other.get("r2"))?.updatedAt).toBe(at(30_000));
        expect((await other.get("c1"))?.updatedAt).toBe(at(0));
        await expect(store.heartbeat(["nope"])).rejects.toThrow(TaskNotFoundError);
      });
    });

    describe("stored format", () => {
      it("writes the current version", async () => {
        await store.create(newTask("t1"));
        const stored = JSON.parse(await backend.readRaw("main", "s1"));
        expect(stored.version).toBe(TASK_FILE_VERSION);
        expect(stored.records).toHaveLength(1);
      });

      it("loads a version-1 file", async () => {
        const fixture = await readFile(FIXTURE_V1, "utf8");
        await backend.writeRaw("main", "20250114-093000-aaaaaa", fixture);
        const records = await store.list();
        expect(records).toEqual(JSON.parse(fixture).records.reverse());
        expect(await store.get("sub-20250114-093012-k3f9qa")).toMatchObject({
          status: "COMPLETED",
          usage: { cost: 0.0123 },
        });
      });

      it("refuses a file from a newer version, naming it", async () => {
        const location = await backend.writeRaw("main", "s9", JSON.stringify({ version: 99, records: [] }));
        const listing = store.list();
        await expect(listing).rejects.toThrow(TaskFileError);
        await expect(listing).rejects.toThrow(`${location}: written in format v99 by a newer agentry`);
      });
    });

    describe("unreadable files", () => {
      let location: string;
      beforeEach(async () => {
        await store.create(newTask("good", { parentSessionId: "s1" }));
        location = await backend.writeRaw("main", "broken", "{ not json");
      });

      it("list throws an error naming the file, or reports it when asked", async () => {
        await expect(store.list()).rejects.toThrow(`Cannot read task file ${location}: not valid JSON`);
        const reported: TaskFileError[] = [];
        const records = await store.list({ onUnreadable: (error) => reported.push(error) });
        expect(records.map((record) => record.taskId)).toEqual(["good"]);
        expect(reported.map((error) => error.location)).toEqual([location]);
      });

      it("keeps serving the other files", async () => {
        expect((await store.get("good"))?.taskId).toBe("good");
        await store.update("good", { status: "RUNNING" });
        await store.create(newTask("fresh", { parentSessionId: "s2" }));
        expect(await store.list({ parentSessionId: "s2" })).toHaveLength(1);
      });

      it("never overwrites the bad file, and an id it may hold is not reported missing", async () => {
        await expect(store.create(newTask("new", { parentSessionId: "broken" }))).rejects.toThrow(location);
        expect(await backend.readRaw("main", "broken")).toBe("{ not json");
        await expect(store.get("maybe-in-broken")).rejects.toThrow(TaskFileError);
      });

      it("names the offending field of a well-formed but invalid file", async () => {
        const record = {
          ...newTask("x"),
          status: "DONE",
          cancelRequested: false,
          createdAt: at(0),
          updatedAt: at(0),
        };
        const bad = await backend.writeRaw("main", "s7", JSON.stringify({ version: 1, records: [record] }));
        await expect(store.list({ parentSessionId: "s7" })).rejects.toThrow(`${bad}: records.0.status`);
      });
    });

    describe("concurrent writers", () => {
      it("loses no update when two instances update the same record at once", async () => {
        await store.create(newTask("t1", { usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 } }));
        const other = open();
        const bump = (s: TaskStore) =>
          s.update("t1", (record) => ({ usage: { ...record.usage!, input: record.usage!.input + 1 } }));
        await Promise.all(Array.from({ length: 40 }, (_, i) => bump(i % 2 ? store : other)));
        expect((await open().get("t1"))?.usage?.input).toBe(40);
      });

      it("loses no record when two instances create in the same session at once", async () => {
        const other = open();
        await Promise.all(
          Array.from({ length: 30 }, (_, i) => (i % 2 ? store : other).create(newTask(`t${i}`))),
        );
        expect(await open().list({ parentSessionId: "s1" })).toHaveLength(30);
      });
    });
  });
}
