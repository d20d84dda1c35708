import { createServer } from "node:net";
import { expect, it } from "vitest";
import { RedisUnavailableError, RedisUrlError } from "../../src/tasks/redis/redis-connection.ts";
import { RedisTaskStore } from "../../src/tasks/redis/redis-task-store.ts";
import type { TaskChange } from "../../src/tasks/task-store.ts";
import { describeWith, REDIS } from "../support/components.ts";
import { waitFor } from "../support/processes.ts";
import { redisStoresPerTest } from "../support/redis-stores.ts";
import { newTask } from "./task-store.conformance.ts";

describeWith(REDIS, "RedisTaskStore: watch, and a server that is not there", () => {
  const redis = redisStoresPerTest();
  const open = redis.open;

  it("tells a watcher in another connection which records changed, without polling", async () => {
    const watcher = await open();
    const writer = await open();
    const heard: TaskChange[] = [];
    const stop = watcher.watch((change) => heard.push(change));
    // The subscription is live once a write from elsewhere is heard.
    await waitFor(
      async () => {
        await writer.create(newTask(`probe-${heard.length}-${Date.now()}`)).catch(() => {});
        return heard.length > 0;
      },
      5_000,
      "the watch to subscribe",
    );
    const ofT1 = () => heard.filter((change) => change.kind === "changed" && change.taskIds.includes("t1"));
    await writer.create(newTask("t1"));
    await writer.requestCancel("t1");
    await waitFor(() => ofT1().length >= 2, 2_000, "two changes");
    expect(ofT1()).toEqual([
      { kind: "changed", taskIds: ["t1"] },
      { kind: "changed", taskIds: ["t1"] },
    ]);
    expect((await watcher.get("t1"))?.cancelRequested).toBe(true);
    stop();
  });

  it("tells a watcher to read again when its connection comes back (it may have missed changes)", async () => {
    const watcher = await open();
    const writer = await open();
    const heard: TaskChange[] = [];
    watcher.watch((change) => heard.push(change));
    // The subscription is live once a write from elsewhere is heard.
    await waitFor(
      async () => {
        await writer.create(newTask(`probe-${heard.length}-${Date.now()}`)).catch(() => {});
        return heard.length > 0;
      },
      5_000,
      "the watch to subscribe",
    );
    await redis.server().restart();
    await waitFor(() => heard.some((change) => change.kind === "resync"), 10_000, "a resync");
  });

  it("refuses a server that cannot be reached, saying where and what to do", async () => {
    const port = await closedPort();
    const opening = RedisTaskStore.connect(`redis://127.0.0.1:${port}/0`);
    await expect(opening).rejects.toThrow(RedisUnavailableError);
    await expect(opening).rejects.toThrow(
      new RegExp(`Cannot reach Redis at redis://127\\.0\\.0\\.1:${port}/0 .*Start redis-server`),
    );
  });

  it("refuses a URL that is not a Redis URL, hiding a password", async () => {
    await expect(RedisTaskStore.connect("http://localhost:6379")).rejects.toThrow(RedisUrlError);
    await expect(RedisTaskStore.connect("redis://:secret@localhost:6379/x")).rejects.toThrow(
      'The Redis URL redis://:***@localhost:6379/x names database "x"',
    );
  });

  it("fails a call with RedisUnavailableError once the server is gone, instead of waiting for it", async () => {
    const store = await open();
    await store.create(newTask("t1"));
    await redis.server().kill();
    await expect(store.get("t2")).rejects.toThrow(RedisUnavailableError);
  });
});

/** A loopback port nothing listens on. */
function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === "object" && address ? address.port : 1));
    });
  });
}
