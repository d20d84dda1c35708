import type { Redis } from "ioredis";
import { afterEach, beforeEach, expect, it } from "vitest";
import { connectRedis, RedisUnavailableError, redisTarget } from "../../src/tasks/redis/redis-connection.ts";
import {
  TaskExistsError,
  TaskFileError,
  TaskNotFoundError,
  TaskStoreError,
} from "../../src/tasks/task-errors.ts";
import { describeWith, REDIS } from "../support/components.ts";
import { redisStoresPerTest } from "../support/redis-stores.ts";
import { newTask } from "./task-store.conformance.ts";

const SESSION = "agentry:tasks:session:";

describeWith(
  REDIS,
  "RedisTaskStore: sessions changed behind its back, races, and writes that change nothing",
  () => {
    const redis = redisStoresPerTest();
    let admin: Redis;
    beforeEach(async () => {
      admin = await connectRedis(redisTarget(redis.server().url), { name: "test-admin" });
    });
    afterEach(() => admin.quit());
    const rev = (session: string) => admin.hget(`${SESSION}${session}`, "rev");

    it("reads again a session deleted and written anew, instead of serving its old copy", async () => {
      const [first, second] = [await redis.open(), await redis.open()];
      await first.create(newTask("t1", { parentSessionId: "s1" }));
      // An operator deletes the session; the set of sessions and the index still name it.
      await admin.del(`${SESSION}main:s1`);
      expect(await first.get("t1")).toBeUndefined();
      expect(await first.list()).toEqual([]);
      // Written again from its first revision on, by another process.
      await second.create(newTask("t2", { parentSessionId: "s1" }));
      expect(await rev("main:s1")).toBe("1");
      expect((await first.get("t2"))?.taskId).toBe("t2");
      await expect(first.update("t1", { status: "RUNNING" })).rejects.toThrow(TaskNotFoundError);
      expect((await first.list()).map((record) => record.taskId)).toEqual(["t2"]);
    });

    it("finds a task no index names by reading every session, past a deleted one, and refuses its id elsewhere", async () => {
      const writer = await redis.open();
      await writer.create(newTask("t1", { parentSessionId: "s1" }));
      await writer.create(newTask("t2", { parentSessionId: "s1" }));
      await writer.create(newTask("t3", { parentSessionId: "s2" }));
      // As written by another program: in no index; and a session of the set that is gone.
      await admin.del("agentry:tasks:index");
      await admin.sadd("agentry:tasks:sessions", `${SESSION}main:s0`);
      const reader = await redis.open();
      expect((await reader.get("t2"))?.parentSessionId).toBe("s1");
      expect((await reader.get("t3"))?.parentSessionId).toBe("s2");
      const other = await redis.open();
      await expect(other.create(newTask("t2", { parentSessionId: "s3" }))).rejects.toThrow(TaskExistsError);
      expect(await admin.exists(`${SESSION}main:s3`)).toBe(0);
    });

    it("reports a task in an unreadable session as unreadable, not as missing", async () => {
      const store = await redis.open();
      await admin.hset(`${SESSION}main:bad`, "text", "not json");
      await admin.sadd("agentry:tasks:sessions", `${SESSION}main:bad`);
      await admin.hset("agentry:tasks:index", "t1", `${SESSION}main:bad`);
      await expect(store.get("t1")).rejects.toThrow(TaskFileError);
    });

    it("lists within a scope without reading other agents' sessions, and ignores keys of another shape in the set", async () => {
      const store = await redis.open();
      await store.create(newTask("t1", { parentAgentId: "main", parentSessionId: "s1" }));
      await store.create(newTask("t2", { parentAgentId: "other", parentSessionId: "s2" }));
      const strays = [
        `${SESSION}broken:s9`, // a session of the right shape: unreadable
        `${SESSION}main`,
        `${SESSION}main:s1:x`,
        `${SESSION}main:.hidden`,
        `${SESSION}.hidden:s1`,
        "agentrz:tasks:session:main:s5", // another prefix
      ];
      for (const key of strays) {
        await admin.hset(key, "text", "not json");
        await admin.sadd("agentry:tasks:sessions", key);
      }
      const ids = (records: { taskId: string }[]) => records.map((record) => record.taskId);
      expect(ids(await store.list({ parentAgentId: "main" }))).toEqual(["t1"]);
      expect(ids(await store.list({ parentAgentId: "main", parentSessionId: "s1" }))).toEqual(["t1"]);
      expect(ids(await store.list({ parentSessionId: "s2" }))).toEqual(["t2"]);
      const unreadable: TaskFileError[] = [];
      const all = await store.list({ onUnreadable: (error) => unreadable.push(error) });
      expect(ids(all).sort()).toEqual(["t1", "t2"]);
      expect(unreadable.map((error) => error.message.includes(`key ${SESSION}broken:s9`))).toEqual([true]);
      await expect(store.list()).rejects.toThrow(TaskFileError);
      await expect(store.list({ parentAgentId: "../x" })).rejects.toThrow(
        new TaskStoreError(
          'Invalid parentAgentId "../x": use letters, digits, ".", "_" and "-" only (at most 128 characters, not starting with a dot or dash).',
        ),
      );
      await expect(store.list({ parentSessionId: "a:b" })).rejects.toThrow(/^Invalid parentSessionId "a:b"/);
    });

    it("lets one of two creates of the same new id win, in one session or in two; the loser writes nothing", async () => {
      const store = await redis.open();
      const t1 = newTask("t1", { parentSessionId: "s0" });
      const sameSession = await Promise.allSettled([store.create(t1), store.create(t1)]);
      expect(sameSession.map((outcome) => outcome.status).sort()).toEqual(["fulfilled", "rejected"]);
      expect(sameSession.find((outcome) => outcome.status === "rejected")?.reason).toBeInstanceOf(
        TaskExistsError,
      );

      // Both see no t2 before either writes; whichever writes second is refused by the write itself.
      const twoSessions = await Promise.allSettled(
        ["s1", "s2"].map((parentSessionId) => store.create(newTask("t2", { parentSessionId }))),
      );
      const winner = twoSessions.findIndex((outcome) => outcome.status === "fulfilled");
      const loser = twoSessions[1 - winner];
      expect(winner).not.toBe(-1);
      expect(loser?.status === "rejected" && loser.reason).toBeInstanceOf(TaskExistsError);
      const [won, lost] = winner === 0 ? ["s1", "s2"] : ["s2", "s1"];
      expect(await admin.exists(`${SESSION}main:${lost}`)).toBe(0);
      expect(await admin.hget("agentry:tasks:index", "t2")).toBe(`${SESSION}main:${won}`);
      expect((await store.get("t2"))?.parentSessionId).toBe(won);
      expect((await store.list()).map((record) => record.taskId).sort()).toEqual(["t1", "t2"]);
    });

    it("stores nothing for a change that changes nothing: no new revision for watchers to read", async () => {
      const store = await redis.open();
      await store.create(newTask("t1"));
      await store.update("t1", {});
      await store.update("t1", { status: "PENDING" });
      expect(await rev("main:s1")).toBe("1");
      await store.update("t1", { status: "COMPLETED", result: "done" });
      await store.markDelivered(["t1"]);
      expect(await rev("main:s1")).toBe("3");
      await store.requestCancel("t1");
      await store.markDelivered(["t1"]);
      await store.heartbeat(["t1"]);
      expect(await rev("main:s1")).toBe("3");
    });

    it("applies a burst of changes to one session in a few writes, not one each", async () => {
      const store = await redis.open();
      const ids = Array.from({ length: 30 }, (_, i) => `t${i}`);
      for (const id of ids) await store.create(newTask(id));
      await Promise.all(ids.map((id) => store.update(id, { status: "RUNNING" })));
      expect((await store.list()).every((record) => record.status === "RUNNING")).toBe(true);
      expect(Number(await rev("main:s1")) - ids.length).toBeLessThanOrEqual(3);
    });

    it("updates the record named, not another of its session", async () => {
      const store = await redis.open();
      await store.create(newTask("t1"));
      await store.create(newTask("t2"));
      await store.update("t2", { status: "RUNNING" });
      expect((await store.get("t1"))?.status).toBe("PENDING");
      expect((await store.get("t2"))?.status).toBe("RUNNING");
    });

    it("serves what it wrote, and a session it read once, without parsing them again", async () => {
      const store = await redis.open();
      const created = await store.create(newTask("t1"));
      expect(await store.get("t1")).toBe(created);
      // A session written by another program, without a revision: its text comes with every read.
      await admin.hdel(`${SESSION}main:s1`, "rev");
      const reader = await redis.open();
      const read = await reader.get("t1");
      expect(read).toEqual(created);
      expect(await reader.get("t1")).toBe(read);
    });

    it("finds a task through the index, not by reading every session, and remembers where each task it saw is", async () => {
      const writer = await redis.open();
      for (let i = 0; i < 5; i++) await writer.create(newTask(`t${i}`, { parentSessionId: `s${i}` }));
      // INFO commandstats counts every command the server ran, the index lookups (HGET) and scans (SMEMBERS).
      const calls = async () => {
        const info = await admin.info("commandstats");
        const count = (command: string) =>
          Number(new RegExp(`cmdstat_${command}:calls=(\\d+)`).exec(info)?.[1] ?? 0);
        return { hget: count("hget"), smembers: count("smembers") };
      };
      const since = async (before: { hget: number; smembers: number }) => {
        const after = await calls();
        return { hget: after.hget - before.hget, smembers: after.smembers - before.smembers };
      };
      let before = await calls();
      expect((await writer.get("t3"))?.taskId).toBe("t3");
      expect(await since(before)).toEqual({ hget: 0, smembers: 0 });

      const reader = await redis.open();
      before = await calls();
      expect((await reader.get("t3"))?.taskId).toBe("t3");
      expect(await since(before)).toEqual({ hget: 1, smembers: 0 });
      before = await calls();
      expect((await reader.get("t3"))?.taskId).toBe("t3");
      expect(await since(before)).toEqual({ hget: 0, smembers: 0 });

      // Sessions in no index: one list, and then each task's session is known.
      await admin.del("agentry:tasks:index");
      const lister = await redis.open();
      expect(await lister.list()).toHaveLength(5);
      before = await calls();
      expect((await lister.get("t1"))?.taskId).toBe("t1");
      expect(await since(before)).toEqual({ hget: 0, smembers: 0 });
    });

    it("passes on an error reply of a running server (keys another program broke) and writes nothing", async () => {
      const store = await redis.open();
      await admin.set("agentry:tasks:sessions", "not a set");
      const refused = await store.create(newTask("t1")).catch((error: unknown) => error);
      expect(refused).not.toBeInstanceOf(RedisUnavailableError);
      expect((refused as Error).message).toMatch(/^WRONGTYPE/);
      expect(await admin.exists(`${SESSION}main:s1`)).toBe(0);

      await admin.del("agentry:tasks:sessions");
      await admin.set(`${SESSION}main:s2`, "not a hash");
      await admin.sadd("agentry:tasks:sessions", `${SESSION}main:s2`);
      await expect(store.list()).rejects.toThrow(/^WRONGTYPE/);
    });
  },
);
