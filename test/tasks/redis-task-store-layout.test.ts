import type { Redis } from "ioredis";
import { afterEach, beforeEach, expect, it, vi } from "vitest";
import { connectRedis, RedisUnavailableError, redisTarget } from "../../src/tasks/redis/redis-connection.ts";
import { RedisTaskStore } from "../../src/tasks/redis/redis-task-store.ts";
import { parseTaskFile } from "../../src/tasks/stored/task-file.ts";
import { TaskStoreError } from "../../src/tasks/task-errors.ts";
import type { TaskChange } from "../../src/tasks/task-store.ts";
import { describeWith, REDIS } from "../support/components.ts";
import { waitFor } from "../support/processes.ts";
import { redisStoresPerTest } from "../support/redis-stores.ts";
import { newTask } from "./task-store.conformance.ts";

const DAY_S = 24 * 60 * 60;

describeWith(REDIS, "RedisTaskStore: the key layout other processes read, its connections, its watch", () => {
  const redis = redisStoresPerTest();
  let admin: Redis;
  beforeEach(async () => {
    admin = await connectRedis(redisTarget(redis.server().url), { name: "test-admin" });
  });
  afterEach(() => admin.quit());

  /** The names of the server's client connections (CLIENT LIST), the admin's left out. */
  const connectionNames = async () =>
    [...String(await admin.client("LIST")).matchAll(/ name=(\S*)/g)]
      .map((match) => match[1])
      .filter((name) => name !== "test-admin")
      .sort();

  /** A store that hears changes: resolves once a write from elsewhere was heard (the subscription is live). */
  async function watching(store: RedisTaskStore, writer: RedisTaskStore, heard: TaskChange[]) {
    const stop = store.watch((change) => heard.push(change));
    let probes = 0;
    await waitFor(
      async () => {
        await writer.create(newTask(`probe-${probes++}`));
        return heard.length > 0;
      },
      5_000,
      "the watch to subscribe",
    );
    return stop;
  }

  it("keeps records under agentry:tasks:…: the session's hash, the set of sessions, the id index, the changes channel", async () => {
    const store = await redis.open();
    const listener = admin.duplicate();
    const published: string[] = [];
    listener.on("message", (channel: string, message: string) => published.push(`${channel} ${message}`));
    await listener.subscribe("agentry:tasks:changed");
    try {
      await store.create(newTask("t1", { parentAgentId: "main", parentSessionId: "s1" }));
      const session = "agentry:tasks:session:main:s1";
      expect(await admin.hget(session, "rev")).toBe("1");
      const text = (await admin.hget(session, "text")) ?? "";
      expect((await parseTaskFile(text, session)).map((record) => record.taskId)).toEqual(["t1"]);
      expect(await admin.smembers("agentry:tasks:sessions")).toEqual([session]);
      expect(await admin.hgetall("agentry:tasks:index")).toEqual({ t1: session });
      await waitFor(() => published.length > 0, 5_000, "the change to be published");
      expect(published).toEqual(['agentry:tasks:changed {"ids":["t1"]}']);
    } finally {
      listener.disconnect();
    }
  });

  it("keeps a run's journal at <prefix>:journal:<runId> for a month after its last line", async () => {
    const fleet = new RedisTaskStore({
      client: admin.duplicate(),
      target: redisTarget(redis.server().url),
      prefix: "fleet-a",
    });
    const plain = await redis.open();
    try {
      await fleet.journals.append("wf-1", ['{"type":"run"}']);
      await plain.journals.append("wf-1", ['{"type":"other"}']);
      expect(await admin.lrange("fleet-a:journal:wf-1", 0, -1)).toEqual(['{"type":"run"}']);
      expect(await admin.lrange("agentry:journal:wf-1", 0, -1)).toEqual(['{"type":"other"}']);
      const ttl = await admin.ttl("fleet-a:journal:wf-1");
      expect(ttl).toBeGreaterThan(29 * DAY_S);
      expect(ttl).toBeLessThanOrEqual(30 * DAY_S);
    } finally {
      await fleet.close();
    }
  });

  it("says where its records are without the server's password", async () => {
    const url = redis.server().url.replace("redis://", "redis://:s3cret@");
    const store = new RedisTaskStore({
      client: admin.duplicate(),
      target: redisTarget(url),
      prefix: "ops:sessions",
    });
    try {
      expect(store.location).toBe(`${url.replace("s3cret", "***")} (keys ops:sessions:tasks:*)`);
    } finally {
      await store.close();
    }
  });

  it("appends no lines without error, and refuses a run id that could escape its key, naming it", async () => {
    const store = await redis.open();
    await store.journals.append("wf-1", []);
    expect(await store.journals.read("wf-1")).toBeUndefined();
    expect(await admin.exists("agentry:journal:wf-1")).toBe(0);
    await expect(store.journals.append("../etc", ["x"])).rejects.toThrow(
      new TaskStoreError('Not a workflow run id: "../etc".'),
    );
  });

  it("names its connections in CLIENT LIST, opens the watch's with the first listener, closes it with the last, and closes all on close()", async () => {
    const store = await redis.open();
    const writer = await redis.open();
    expect(await connectionNames()).toEqual(["agentry-tasks", "agentry-tasks"]);
    const stop = await watching(store, writer, []);
    expect(await connectionNames()).toEqual(["agentry-tasks", "agentry-tasks", "agentry-tasks-watch"]);
    stop();
    await waitFor(
      async () => (await connectionNames()).length === 2,
      5_000,
      "the watch's connection to close",
    );
    await store.close();
    await waitFor(
      async () => (await connectionNames()).length === 1,
      5_000,
      "the store's connection to close",
    );
    await writer.close();
    expect(await connectionNames()).toEqual([]);
  });

  it("closes the watch's connection with the store", async () => {
    const store = await redis.open();
    const writer = await redis.open();
    await watching(store, writer, []);
    await store.close();
    await waitFor(
      async () => (await connectionNames()).length === 1,
      5_000,
      "the store's connections to close",
    );
    expect(await connectionNames()).toEqual(["agentry-tasks"]);
  });

  it("stops telling a listener that stopped, and keeps telling the others", async () => {
    const store = await redis.open();
    const writer = await redis.open();
    const first: TaskChange[] = [];
    const second: TaskChange[] = [];
    const stopFirst = await watching(store, writer, first);
    store.watch((change) => second.push(change));
    stopFirst();
    await writer.create(newTask("t1"));
    const heardT1 = (changes: TaskChange[]) =>
      changes.some((change) => change.kind === "changed" && change.taskIds.includes("t1"));
    await waitFor(() => heardT1(second), 5_000, "the second listener to hear t1");
    expect(heardT1(first)).toBe(false);
  });

  it("tells a new watcher what changed first, not to read everything again", async () => {
    const store = await redis.open();
    const writer = await redis.open();
    const heard: TaskChange[] = [];
    await watching(store, writer, heard);
    expect(heard[0]?.kind).toBe("changed");
    expect(heard.some((change) => change.kind === "resync")).toBe(false);
  });

  it("tells watchers to read again when a message on the channel is not a list of ids", async () => {
    const store = await redis.open();
    const writer = await redis.open();
    const heard: TaskChange[] = [];
    await watching(store, writer, heard);
    for (const message of ["not json", '{"ids":"t1"}', '{"ids":[1]}', '{"ids":["a",1]}', '{"ids":["t9"]}']) {
      await admin.publish("agentry:tasks:changed", message);
    }
    // Probes published before the watch was live may still arrive: only the messages above count.
    const published = () =>
      heard.filter(
        (change) => change.kind === "resync" || !change.taskIds.every((id) => id.startsWith("probe-")),
      );
    await waitFor(() => published().length >= 5, 5_000, "five messages");
    expect(published()).toEqual([
      { kind: "resync" },
      { kind: "resync" },
      { kind: "resync" },
      { kind: "resync" },
      { kind: "changed", taskIds: ["t9"] },
    ]);
  });

  it("prints nothing on the terminal while the server of a watching store is gone", async () => {
    const printed = vi.spyOn(console, "error");
    try {
      const store = await redis.open();
      const writer = await redis.open();
      await watching(store, writer, []);
      await redis.server().kill();
      // By the time a call gives up, every connection has failed to reconnect several times.
      await expect(store.get("t1")).rejects.toThrow(RedisUnavailableError);
      expect(printed).not.toHaveBeenCalled();
    } finally {
      printed.mockRestore();
    }
  });
});
