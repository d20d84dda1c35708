import { afterEach, beforeEach } from "vitest";
import { RedisTaskStore } from "../../src/tasks/redis/redis-task-store.ts";
import { type RedisServer, startRedisServer } from "./redis-server.ts";

/**
 * Inside a `describe`: each test gets a redis-server of its own (`server()`), and the RedisTaskStores
 * it opens on it (`open()`) are closed, then the server stopped, after the test.
 */
export function redisStoresPerTest(): { server(): RedisServer; open(): Promise<RedisTaskStore> } {
  let server: RedisServer | undefined;
  const stores: RedisTaskStore[] = [];
  beforeEach(async () => {
    server = await startRedisServer();
  });
  afterEach(async () => {
    await Promise.all(stores.splice(0).map((store) => store.close()));
    await server?.stop();
  });
  const current = (): RedisServer => {
    if (server === undefined) throw new Error("redisStoresPerTest: use it inside a test");
    return server;
  };
  return {
    server: current,
    async open() {
      const store = await RedisTaskStore.connect(current().url);
      stores.push(store);
      return store;
    },
  };
}
