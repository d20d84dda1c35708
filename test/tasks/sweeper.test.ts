import { writeFile } from "node:fs/promises";
import { hostname } from "node:os";
import { join } from "node:path";
import { beforeEach, expect, it } from "vitest";
import { currentProcess, formatIdentity, localProcess } from "../../src/state/process-identity.ts";
import { currentOwner, type OwnerLiveness } from "../../src/tasks/owner.ts";
import { sweepOrphans } from "../../src/tasks/sweeper.ts";
import type { NewTaskRecord } from "../../src/tasks/task-record.ts";
import { WorkspaceTaskStore } from "../../src/tasks/workspace/workspace-task-store.ts";
import { tempDir } from "../support/temp-dir.ts";
import { deadPid } from "./support/dead-pid.ts";
import { newTask } from "./task-store.conformance.ts";

const NOW = new Date("2025-03-01T12:00:00.000Z");
const ago = (ms: number) => new Date(NOW.getTime() - ms).toISOString();
const me = currentOwner();
/** Another process of this machine and namespace, as its owner string names it. */
const local = (pid: number, startTime?: string) =>
  formatIdentity(startTime === undefined ? localProcess(pid) : { ...localProcess(pid), startTime });
let store: WorkspaceTaskStore;
let workspace: string;

beforeEach(async () => {
  workspace = await tempDir();
  store = new WorkspaceTaskStore({ workspace, now: () => NOW });
});

const running = (taskId: string, owner: string, silentMs: number, extra: Partial<NewTaskRecord> = {}) =>
  store.create(
    newTask(taskId, {
      status: "RUNNING",
      owner,
      createdAt: ago(silentMs),
      updatedAt: ago(silentMs),
      ...extra,
    }),
  );

it("fails a task whose local owner process is gone, however fresh its heartbeat", async () => {
  await running("t1", local(await deadPid()), 0, { description: "Refactor the parser" });
  const report = await sweepOrphans(store, { staleAfterMs: 60_000, now: NOW });
  expect(report.orphaned.map((record) => record.taskId)).toEqual(["t1"]);
  const swept = await store.get("t1");
  expect(swept).toMatchObject({ status: "FAILED", reason: "orphaned" });
  expect(swept?.error).toBe(
    `Task t1 (explore: Refactor the parser) was orphaned while RUNNING: its owner process ${swept?.owner.split("/")[0]} is gone. ` +
      `Its transcript is kept; continue it with task_id "t1".`,
  );
});

it("fails a task whose pid now belongs to another process (another start time), and PENDING ones too", async () => {
  const reused = local(process.pid, String(Number(currentProcess().startTime ?? 0) + 1));
  await running("reused", reused, 0);
  await store.create(newTask("queued", { owner: reused, createdAt: ago(1_000), updatedAt: ago(1_000) }));
  const report = await sweepOrphans(store, { staleAfterMs: 60_000, now: NOW });
  expect(report.orphaned.map((record) => record.taskId).sort()).toEqual(["queued", "reused"]);
  expect((await store.get("reused"))?.error).toMatch(/its owner process \S+ is gone/);
  expect((await store.get("queued"))?.error).toMatch(/orphaned while PENDING/);
});

it("keeps the tasks of an owner proven alive however long it was silent (Ctrl-Z)", async () => {
  await running("paused", me, 3_600_000);
  const report = await sweepOrphans(store, { staleAfterMs: 60_000, now: NOW });
  expect(report.orphaned).toEqual([]);
  expect((await store.get("paused"))?.status).toBe("RUNNING");
});

it("judges an owner it cannot check (an older agentry's bare host:pid) by silence only", async () => {
  await running("legacy-silent", `${hostname()}:${process.pid}`, 120_000);
  const report = await sweepOrphans(store, { staleAfterMs: 60_000, now: NOW });
  expect(report.orphaned.map((record) => record.taskId)).toEqual(["legacy-silent"]);
  expect((await store.get("legacy-silent"))?.error).toMatch(/has sent no heartbeat for 120 s/);
});

it("judges owners on other hosts by silence only", async () => {
  await running("remote-fresh", "other-host:1", 1_000);
  await running("remote-silent", "other-host:1", 90_000);
  const report = await sweepOrphans(store, { staleAfterMs: 60_000, now: NOW });
  expect(report.orphaned.map((record) => record.taskId)).toEqual(["remote-silent"]);
  expect((await store.get("remote-fresh"))?.status).toBe("RUNNING");
});

it("leaves live, fresh and finished tasks alone", async () => {
  await running("alive", me, 1_000);
  await store.create(newTask("done", { status: "COMPLETED", owner: local(await deadPid()) }));
  const report = await sweepOrphans(store, { staleAfterMs: 60_000, now: NOW });
  expect(report).toEqual({ orphaned: [], unreadable: [] });
  expect((await store.get("alive"))?.status).toBe("RUNNING");
  expect((await store.get("done"))?.status).toBe("COMPLETED");
});

it("re-checks each task under its lock before failing it", async () => {
  await running("t1", "x:1", 0);
  const answers: OwnerLiveness[] = ["dead", "alive"]; // dead when listed, alive by the time of the update
  const report = await sweepOrphans(store, {
    staleAfterMs: 60_000,
    now: NOW,
    liveness: () => answers.shift()!,
  });
  expect(report.orphaned).toEqual([]);
  expect((await store.get("t1"))?.status).toBe("RUNNING");
});

it("reports unreadable files and still sweeps the others", async () => {
  await running("t1", "other-host:1", 90_000);
  const bad = join(workspace, ".agentry/agents/main/tasks/broken.json");
  await writeFile(bad, "nope");
  const report = await sweepOrphans(store, { staleAfterMs: 60_000, now: NOW });
  expect(report.orphaned.map((record) => record.taskId)).toEqual(["t1"]);
  expect(report.unreadable.map((error) => error.location)).toEqual([bad]);
});
