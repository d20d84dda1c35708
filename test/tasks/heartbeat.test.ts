import { setTimeout as sleep } from "node:timers/promises";
import { expect, it, vi } from "vitest";
import { startHeartbeat } from "../../src/tasks/heartbeat.ts";
import { TaskNotFoundError } from "../../src/tasks/task-errors.ts";
import type { TaskStore } from "../../src/tasks/task-store.ts";
import { WorkspaceTaskStore } from "../../src/tasks/workspace/workspace-task-store.ts";
import { tempDir } from "../support/temp-dir.ts";
import { scaled } from "../support/time-scale.ts";
import { newTask } from "./task-store.conformance.ts";

const LONG_AGO = "2020-01-01T00:00:00.000Z";

it("beats the given tasks until stopped", async () => {
  const store = new WorkspaceTaskStore({ workspace: await tempDir() });
  await store.create(newTask("t1", { status: "RUNNING", createdAt: LONG_AGO, updatedAt: LONG_AGO }));
  const started = Date.now();
  const stop = startHeartbeat(store, () => ["t1"], 20);
  await vi.waitFor(async () => expect((await store.get("t1"))?.updatedAt).not.toBe(LONG_AGO), scaled(5000));
  await stop();
  const beaten = (await store.get("t1"))?.updatedAt;
  expect(Date.parse(beaten!)).toBeGreaterThanOrEqual(started);
  await sleep(100);
  expect((await store.get("t1"))?.updatedAt).toBe(beaten);
});

it("reports failures to onError and keeps beating", async () => {
  const store = new WorkspaceTaskStore({ workspace: await tempDir() });
  await store.create(newTask("t1", { status: "RUNNING" }));
  const errors: unknown[] = [];
  const stop = startHeartbeat(
    store,
    () => ["nope"],
    20,
    (error) => errors.push(error),
  );
  await vi.waitFor(() => expect(errors.length).toBeGreaterThan(1), scaled(5000));
  await stop();
  expect(errors[0]).toBeInstanceOf(TaskNotFoundError);
});

it("does not call the store when there is nothing to beat, and never overlaps beats", async () => {
  let calls = 0;
  let concurrent = 0;
  let most = 0;
  const ids: string[] = [];
  const slowStore = {
    async heartbeat() {
      calls++;
      most = Math.max(most, ++concurrent);
      await sleep(60);
      concurrent--;
      return [];
    },
  } as unknown as TaskStore;
  const stop = startHeartbeat(slowStore, () => ids, 10);
  await sleep(50);
  expect(calls).toBe(0);
  ids.push("t1");
  await vi.waitFor(() => expect(calls).toBeGreaterThan(2), scaled(5000));
  await stop();
  expect(most).toBe(1);
});

it("rejects a bad interval", async () => {
  const store = new WorkspaceTaskStore({ workspace: await tempDir() });
  expect(() => startHeartbeat(store, () => [], 0)).toThrow(/intervalMs must be a positive number/);
});
