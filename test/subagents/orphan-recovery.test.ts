import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { afterEach, expect, test } from "vitest";
import { TASK_FILE_VERSION } from "../../src/tasks/stored/task-file.ts";
import type { TaskRecord } from "../../src/tasks/task-record.ts";
import { isRunning, pidFrom, waitFor } from "../support/processes.ts";
import { scaled } from "../support/time-scale.ts";
import { tempWorkspace } from "./support/subagent-harness.ts";
import { runTasksCli } from "./support/tasks-cli-process.ts";

const OWNER = fileURLToPath(new URL("./support/owner-run.ts", import.meta.url));

let owner: ChildProcess | undefined;
const strays: number[] = [];
afterEach(async () => {
  if (owner && owner.exitCode === null && owner.signalCode === null) {
    owner.kill("SIGKILL");
    await once(owner, "exit");
  }
  // The owner's bash ran in its own process group and outlives a kill -9 of the owner.
  for (const pid of strays.splice(0)) if (isRunning(pid)) process.kill(pid, "SIGKILL");
  owner = undefined;
});

async function startOwner(ws: string): Promise<{ taskId: string; bashPid: number }> {
  owner = spawn(process.execPath, [OWNER, ws], { stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  owner.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: owner!.stdout! }).once("line", resolve);
    owner!.once("exit", (code) => reject(new Error(`owner exited with ${code}: ${stderr}`)));
  });
  const taskId = /^ready (\S+)$/.exec(line)?.[1];
  if (!taskId) throw new Error(`unexpected owner output: ${line}`);
  const bashPid = await pidFrom(join(ws, "pid.txt"));
  strays.push(bashPid);
  return { taskId, bashPid };
}

/** Every task file parses as JSON with its records. */
async function taskFiles(ws: string): Promise<unknown[]> {
  const root = join(ws, ".agentry", "agents");
  const files: unknown[] = [];
  for (const agent of await readdir(root)) {
    const dir = join(root, agent, "tasks");
    for (const name of (await readdir(dir)).filter((n) => n.endsWith(".json")))
      files.push(JSON.parse(await readFile(join(dir, name), "utf8")));
  }
  return files;
}

test("kill -9 of the owning process: the next `tasks list` reports the task FAILED orphaned; the files stay intact", async () => {
  const ws = await tempWorkspace();
  const { taskId } = await startOwner(ws);
  owner!.kill("SIGKILL");
  await once(owner!, "exit");

  // At once, not after an orphan timeout: its owner is gone.
  const listed = await runTasksCli(["tasks", "list", "--json", "--cwd", ws], ws);
  expect(listed.code).toBe(0);
  const records = JSON.parse(listed.stdout) as TaskRecord[];
  expect(records).toHaveLength(1);
  expect(records[0]).toMatchObject({ taskId, status: "FAILED", reason: "orphaned" });
  expect(records[0]?.error).toContain("is gone");
  const files = await taskFiles(ws);
  expect(files).toEqual([
    { version: TASK_FILE_VERSION, records: [expect.objectContaining({ taskId, status: "FAILED" })] },
  ]);

  const shown = await runTasksCli(["tasks", "show", taskId, "--cwd", ws], ws);
  expect(shown.stdout).toContain("status:           FAILED (orphaned)");
  expect(shown.stdout).toMatch(
    /error: Task sub-\S+ \(general-purpose: Doomed job\) was orphaned while RUNNING/,
  );
});

test("an owner stopped (SIGSTOP) past the orphan timeout keeps its task: it is alive, however silent", async () => {
  const ORPHAN_TIMEOUT_MS = scaled(800);
  const ws = await tempWorkspace();
  await writeFile(
    join(ws, "agentry.json"),
    JSON.stringify({ subagents: { orphanTimeoutMs: ORPHAN_TIMEOUT_MS, heartbeatMs: scaled(100) } }),
  );
  const { taskId } = await startOwner(ws);
  owner!.kill("SIGSTOP");
  let silentSince = "";
  try {
    await sleep(ORPHAN_TIMEOUT_MS * 1.5);
    const later = await runTasksCli(["tasks", "list", "--json", "--cwd", ws], ws);
    const [stale] = JSON.parse(later.stdout) as TaskRecord[];
    // Silent for longer than the timeout, and still RUNNING: its owner is proven alive.
    expect(Date.now() - Date.parse(stale?.updatedAt ?? "")).toBeGreaterThan(ORPHAN_TIMEOUT_MS);
    expect(stale).toMatchObject({ taskId, status: "RUNNING" });
    silentSince = stale?.updatedAt ?? "";
  } finally {
    owner!.kill("SIGCONT");
  }
  // Resumed, it beats again.
  const beat = async () => {
    const listed = await runTasksCli(["tasks", "list", "--json", "--cwd", ws], ws);
    const [record] = JSON.parse(listed.stdout) as TaskRecord[];
    return record?.status === "RUNNING" && Date.parse(record.updatedAt) > Date.parse(silentSince);
  };
  await waitFor(beat, 5_000, "a heartbeat after SIGCONT");
});
