import { randomBytes } from "node:crypto";
import type { Redis } from "ioredis";
import { afterAll, beforeAll } from "vitest";
import { connectRedis, redisTarget } from "../../src/tasks/redis-connection.ts";
import { redisTaskKeys } from "../../src/tasks/redis-keys.ts";
import { RedisTaskStore } from "../../src/tasks/redis-task-store.ts";
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
});
