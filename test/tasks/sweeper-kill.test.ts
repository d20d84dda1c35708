import { spawn } from "node:child_process";
import { once } from "node:events";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { expect, it, vi } from "vitest";
import { sweepOrphans } from "../../src/tasks/sweeper.ts";
import { WorkspaceTaskStore } from "../../src/tasks/workspace/workspace-task-store.ts";
import { tempDir } from "../support/temp-dir.ts";
import { scaled } from "../support/time-scale.ts";
import { newTask } from "./task-store.conformance.ts";

const OWNER = new URL("./support/owner-process.ts", import.meta.url).pathname;

it("after kill -9 of the owner mid-write, the sweeper reports the task FAILED orphaned; files stay intact", async () => {
  const workspace = await tempDir();
  // Its locks never go stale here and it gives up on one soon: it gets in only by seeing the holder dead.
  const store = new WorkspaceTaskStore({ workspace, lock: { staleMs: 3_600_000, timeoutMs: scaled(5_000) } });
  await store.create(newTask("bystander", { parentSessionId: "owner-session", status: "COMPLETED" }));

  const owner = spawn(process.execPath, [OWNER, workspace], { stdio: ["ignore", "pipe", "inherit"] });
  await once(owner.stdout, "data");
  // Let it write (and take the lock) many times, so the kill lands mid-work.
  await vi.waitFor(
    async () => expect((await store.get("victim"))?.usage?.output).toBeGreaterThan(20),
    scaled(10_000),
  );
  owner.kill("SIGKILL");
  await once(owner, "exit");

  // A long staleness window: the verdict must come from the dead pid, not from silence; and a lock the
  // dead owner held is broken at once, or the sweep fails with the lock's timeout.
  const report = await sweepOrphans(store, { staleAfterMs: 3_600_000 });
  expect(report.unreadable).toEqual([]);
  expect(report.orphaned.map((record) => record.taskId)).toEqual(["victim"]);
  const victim = await new WorkspaceTaskStore({ workspace }).get("victim");
  expect(victim).toMatchObject({ status: "FAILED", reason: "orphaned" });
  expect(victim?.error).toMatch(/owner process .*:\d+ is gone.*continue it with task_id "victim"/);
  expect(victim?.usage?.output).toBeGreaterThan(20);
  expect((await store.get("bystander"))?.status).toBe("COMPLETED");

  const dir = join(workspace, ".agentry/agents/main/tasks");
  const files = (await readdir(dir)).filter((name) => name.endsWith(".json") && !name.startsWith("."));
  expect(files).toEqual(["owner-session.json"]);
  const stored = JSON.parse(await readFile(join(dir, "owner-session.json"), "utf8"));
  expect(stored.records).toHaveLength(2);
});
