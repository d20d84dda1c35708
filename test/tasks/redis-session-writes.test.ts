import { createConnection, createServer, type Server, type Socket } from "node:net";
import type { Redis } from "ioredis";
import { afterEach, beforeEach, expect, it } from "vitest";
import { connectRedis, redisTarget } from "../../src/tasks/redis/redis-connection.ts";
import { RedisTaskStore } from "../../src/tasks/redis/redis-task-store.ts";
import { TaskStoreError } from "../../src/tasks/task-errors.ts";
import { describeWith, REDIS } from "../support/components.ts";
import { redisStoresPerTest } from "../support/redis-stores.ts";
import { newTask } from "./task-store.conformance.ts";

/** A line of the write script (redis-scripts.ts) that no other command sent carries. */
const WRITE_SCRIPT_MARK = "return {'conflict'}";

describeWith(REDIS, "RedisSessionWrites: a write that keeps losing the compare-and-set", () => {
  const redis = redisStoresPerTest();
  let admin: Redis;
  let proxy: Server | undefined;
  beforeEach(async () => {
    admin = await connectRedis(redisTarget(redis.server().url), { name: "test-admin" });
  });
  afterEach(async () => {
    await new Promise((resolve) => (proxy ? proxy.close(resolve) : resolve(undefined)));
    await admin.quit();
  });

  /**
   * A TCP proxy to the server that, before passing on each write script, has another writer change
   * `session` first: every write of the store behind it loses. Counts the write scripts it passed.
   */
  async function rivalProxy(session: string): Promise<{ url: string; writes: () => number }> {
    let writes = 0;
    const sockets = new Set<Socket>();
    proxy = createServer((client) => {
      const upstream = createConnection(redis.server().port, "127.0.0.1");
      sockets.add(client).add(upstream);
      upstream.pipe(client);
      let tail = "";
      let forwarding = Promise.resolve();
      client.on("data", (chunk: Buffer) => {
        const seen = tail + chunk.toString("latin1");
        tail = seen.slice(-WRITE_SCRIPT_MARK.length);
        const isWrite = seen.includes(WRITE_SCRIPT_MARK);
        forwarding = forwarding.then(async () => {
          if (isWrite) {
            writes++;
            await admin.hincrby(session, "rev", 1);
          }
          upstream.write(chunk);
        });
      });
      const end = () => {
        client.destroy();
        upstream.destroy();
      };
      client.on("close", end).on("error", end);
      upstream.on("close", end).on("error", end);
    });
    const server = proxy;
    server.on("close", () => {
      for (const socket of sockets) socket.destroy();
    });
    const port = await new Promise<number>((resolve) =>
      server.listen(0, "127.0.0.1", () => {
        const address = server.address();
        resolve(typeof address === "object" && address ? address.port : 0);
      }),
    );
    return { url: `redis://127.0.0.1:${port}/0`, writes: () => writes };
  }

  it("gives up after 100 attempts, saying where and why, instead of retrying for ever", async () => {
    const session = "agentry:tasks:session:main:s1";
    const rival = await rivalProxy(session);
    const store = await RedisTaskStore.connect(rival.url);
    try {
      const error = await store.create(newTask("t1")).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(TaskStoreError);
      expect((error as Error).message).toBe(
        `Gave up writing ${rival.url} key ${session} after 100 attempts: other writers kept changing it.`,
      );
      expect(rival.writes()).toBe(100);
      // Nothing of the refused write was stored.
      expect(await admin.hget(session, "text")).toBeNull();
      expect(await admin.hget("agentry:tasks:index", "t1")).toBeNull();
    } finally {
      await store.close();
    }
  });
});
