import { expect, it } from "vitest";
import { taskChanges } from "../../src/cli/commands/task-changes.ts";
import { WorkspaceTaskStore } from "../../src/tasks/workspace-task-store.ts";
import { describeWith, REDIS } from "../support/components.ts";
import { waitFor } from "../support/processes.ts";
import { redisStoresPerTest } from "../support/redis-stores.ts";
import { tempDir } from "../support/temp-dir.ts";
import { scaled } from "../support/time-scale.ts";
import { newTask } from "../tasks/task-store.conformance.ts";

// `tasks wait` and `tasks cancel` wake when their task changes on a store that pushes changes, and
// read again after the poll interval on one that does not.

it("on the workspace's files it waits the poll interval", async () => {
  const store = new WorkspaceTaskStore({ workspace: await tempDir("agentry-changes-") });
  const changes = taskChanges(store, "t1");
  const started = Date.now();
  await changes.next(200);
  expect(changes.watching).toBe(false);
  expect(Date.now() - started).toBeGreaterThanOrEqual(190);
  changes.stop();
});

describeWith(REDIS, "on Redis", () => {
  const redis = redisStoresPerTest();

  it("wakes as soon as another process changes the task, not at the end of the interval", async () => {
    const [mine, other] = [await redis.open(), await redis.open()];
    const task = await other.create(newTask("t-wait"));
    const changes = taskChanges(mine, task.taskId);
    expect(changes.watching).toBe(true);
    // Live once a change is heard: a read woken well before its interval.
    await waitFor(
      async () => {
        await other.heartbeat([task.taskId]);
        await changes.next(100);
        const started = Date.now();
        await other.heartbeat([task.taskId]);
        await changes.next(scaled(5_000));
        return Date.now() - started < scaled(1_000);
      },
      10_000,
      "the watch to subscribe",
    );

    setTimeout(() => void other.requestCancel(task.taskId), 50);
    // An interval longer than any test bound: only the change can end this wait in time.
    await changes.next(10 * 60_000);
    changes.stop();
  });
});
