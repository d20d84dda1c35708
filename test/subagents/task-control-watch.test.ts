import { expect, it } from "vitest";
import { TaskControl } from "../../src/subagents/tree/task-control.ts";
import { describeWith, REDIS } from "../support/components.ts";
import { waitFor } from "../support/processes.ts";
import { redisStoresPerTest } from "../support/redis-stores.ts";
import { scaled } from "../support/time-scale.ts";
import { newTask } from "../tasks/task-store.conformance.ts";

// With a store that pushes changes (Redis), the owner hears another process's cancel request at
// once, not at its next poll.

describeWith(REDIS, "TaskControl on a store that can watch", () => {
  const redis = redisStoresPerTest();
  const open = redis.open;

  it("hears a cancel request from another process at once, long before its next poll", async () => {
    const owned = await open();
    const other = await open();
    const cancelled: string[] = [];
    const control = new TaskControl({
      store: owned,
      owner: "owner-1",
      // Its next poll comes long after the wait below gives up, at any time scale.
      limits: { heartbeatMs: scaled(60_000), cancelPollMs: scaled(60_000), orphanTimeoutMs: scaled(120_000) },
      onCancelRequested: (taskId) => cancelled.push(taskId),
      warn: (message) => {
        throw new Error(message);
      },
    });
    const task = await owned.create(newTask("t-cancel"));
    control.track(task.taskId);
    // The watch is live once a change from elsewhere reaches this store.
    const heard: string[] = [];
    const stop = owned.watch((change) => {
      if (change.kind === "changed") heard.push(...change.taskIds);
    });
    await waitFor(
      async () => {
        await other.heartbeat([task.taskId]).catch(() => {});
        return heard.length > 0;
      },
      5_000,
      "the watch to subscribe",
    );
    stop();

    await other.requestCancel(task.taskId);

    await waitFor(() => cancelled.length > 0, 5_000, "the cancel request to be heard");
    expect(cancelled).toEqual([task.taskId]);
    await control.stop();
  });
});
