import { expect, it } from "vitest";
import { taskChanges } from "../../src/cli/commands/tasks/task-changes.ts";
import { WorkspaceTaskStore } from "../../src/tasks/workspace/workspace-task-store.ts";
import { describeWith, REDIS } from "../support/components.ts";
import { waitFor } from "../support/processes.ts";
import { redisStoresPerTest } from "../support/redis-stores.ts";
import { tempDir } from "../support/temp-dir.ts";
import { scaled } from "../support/time-scale.ts";
import { newTask } from "../tasks/task-store.conformance.ts";

// `tasks wait` and `tasks cancel` wake when their task changes: every store pushes its changes (the
// workspace's through the file system, Redis's over pub/sub), so they need not read on a timer.

it("on the workspace's files it wakes when another store changes the task", async () => {
  const workspace = await tempDir("agentry-changes-");
  const [mine, other] = [new WorkspaceTaskStore({ workspace }), new WorkspaceTaskStore({ workspace })];
  const task = await other.create(newTask("t1"));
  const changes = taskChanges(mine, task.taskId);
  expect(changes.watching).toBe(true);
  // The watch is live once a change made elsewhere reaches it.
  const heard: string[] = [];
  const stop = mine.watch((change) => {
    if (change.kind === "changed") heard.push(...change.taskIds);
  });
  await waitFor(
    async () => {
      await other.heartbeat([task.taskId]);
      return heard.length > 0;
    },
    10_000,
    "the watch to start",
  );
  stop();
  await changes.next(0);

  await other.requestCancel(task.taskId);
  // Woken by the change: a minute is only the bound that catches a watch that never tells.
  await changes.next(60_000);
  expect((await mine.get(task.taskId))?.cancelRequested).toBe(true);
  changes.stop();
}, 70_000);

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
