import { randomBytes } from "node:crypto";
import type { Redis } from "ioredis";
import { afterAll, beforeAll, expect, it } from "vitest";
import { connectRedis, redisTarget } from "../../src/tasks/redis/redis-connection.ts";
import { redisTaskKeys } from "../../src/tasks/redis/redis-keys.ts";
import { RedisTaskStore } from "../../src/tasks/redis/redis-task-store.ts";
import { TaskStoreError } from "../../src/tasks/task-errors.ts";
import { describeWith, REDIS } from "../support/components.ts";
import { type RedisServer, startRedisServer } from "../support/redis-server.ts";
import { taskStoreConformance } from "./task-store.conformance.ts";

describeWith(REDIS, "RedisTaskStore", () => {
  let server: RedisServer;
  let admin: Redis;
  beforeAll(async () => {
    server = await startRedisServer();
    admin = await connectRedis(redisTarget(server.url), { name: "test-admin" });
  });
  afterAll(async () => {
    await admin?.quit();
    await server?.stop();
  });

  // Each test gets its own key prefix on the one server: a fresh, empty store.
  taskStoreConformance("redis", async () => {
    const prefix = `t${randomBytes(6).toString("hex")}`;
    const keys = redisTaskKeys(prefix);
    const target = redisTarget(server.url);
    const opened: RedisTaskStore[] = [];
    return {
      open: (options = {}) => {
        const store = new RedisTaskStore({
          client: admin.duplicate({ lazyConnect: false }),
          target,
          prefix,
          ...options,
        });
        opened.push(store);
        return store;
      },
      async writeRaw(agent, session, text) {
        const key = keys.session(agent, session);
        await admin.hset(key, "text", text);
        await admin.sadd(keys.sessions, key);
        return `${target.label} key ${key}`;
      },
      readRaw: async (agent, session) => (await admin.hget(keys.session(agent, session), "text")) ?? "",
      async cleanup() {
        await Promise.all(opened.map((store) => store.close()));
      },
    };
  });

  it("keeps workflow runs' journals: lines in order, for every instance; an unknown run has none; a bad id is refused", async () => {
    const target = redisTarget(server.url);
    const prefix = `t${randomBytes(6).toString("hex")}`;
    const open = () =>
      new RedisTaskStore({ client: admin.duplicate({ lazyConnect: false }), target, prefix });
    const [writer, other] = [open(), open()];
    try {
      await writer.journals.append("wf-1", ['{"type":"run"}', '{"type":"call"}']);
      await Promise.all(Array.from({ length: 20 }, (_, i) => other.journals.append("wf-2", [`{"i":${i}}`])));
      await other.journals.append("wf-1", ['{"type":"result"}']);

      expect(await other.journals.read("wf-1")).toEqual([
        '{"type":"run"}',
        '{"type":"call"}',
        '{"type":"result"}',
      ]);
      expect(await writer.journals.read("wf-2")).toHaveLength(20);
      expect(await writer.journals.read("wf-none")).toBeUndefined();
      await expect(writer.journals.append("../etc", ["x"])).rejects.toThrow(TaskStoreError);
    } finally {
      await Promise.all([writer.close(), other.close()]);
    }
  });
});
