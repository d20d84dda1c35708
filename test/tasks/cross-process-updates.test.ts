import { spawn } from "node:child_process";
import { once } from "node:events";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { expect, it } from "vitest";
import { TASK_FILE_VERSION } from "../../src/tasks/stored/task-file.ts";
import { WorkspaceTaskStore } from "../../src/tasks/workspace/workspace-task-store.ts";
import { tempDir } from "../support/temp-dir.ts";
import { scaled } from "../support/time-scale.ts";
import { newTask } from "./task-store.conformance.ts";

const WORKER = new URL("./support/update-worker.ts", import.meta.url).pathname;
const UPDATES = 200;

async function runWorker(workspace: string, mark: string, startAt: number): Promise<void> {
  const child = spawn(
    process.execPath,
    [WORKER, workspace, "shared-task", mark, String(UPDATES), String(startAt)],
    {
      stdio: ["ignore", "inherit", "inherit"],
    },
  );
  const [code] = await once(child, "exit");
  expect(code, `worker ${mark} exit code`).toBe(0);
}

it(
  "two processes updating the same session's records 200 times each lose nothing",
  async () => {
    const workspace = await tempDir();
    const store = new WorkspaceTaskStore({ workspace });
    await store.create(
      newTask("shared-task", {
        parentSessionId: "shared",
        usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
      }),
    );

    // Both start at the same instant (after their start-up), so their updates interleave.
    const startAt = Date.now() + 1500;
    await Promise.all([runWorker(workspace, "a", startAt), runWorker(workspace, "b", startAt)]);

    const dir = join(workspace, ".agentry/agents/main/tasks");
    const stored = JSON.parse(await readFile(join(dir, "shared.json"), "utf8"));
    expect(stored.version).toBe(TASK_FILE_VERSION);
    const shared = await new WorkspaceTaskStore({ workspace }).get("shared-task");
    expect(shared?.usage?.input).toBe(2 * UPDATES);
    expect(shared?.result?.replaceAll("b", "")).toHaveLength(UPDATES);
    expect(shared?.result?.replaceAll("a", "")).toHaveLength(UPDATES);
    expect((await store.list({ parentSessionId: "shared" })).map((r) => r.taskId).sort()).toEqual([
      "own-a",
      "own-b",
      "shared-task",
    ]);
    // No lock or temp file is left behind.
    expect(await readdir(dir)).toEqual(["shared.json"]);
  },
  scaled(60_000),
);
