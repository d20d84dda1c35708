import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { afterEach, expect, test } from "vitest";
import type { TaskRecord } from "../../src/tasks/task-record.ts";
import { isRunning, pidFrom } from "../support/processes.ts";
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

  const started = Date.now();
  const listed = await runTasksCli(["tasks", "list", "--json", "--cwd", ws], ws);
  expect(listed.code).toBe(0);
  const records = JSON.parse(listed.stdout) as TaskRecord[];
  expect(records).toHaveLength(1);
  expect(records[0]).toMatchObject({ taskId, status: "FAILED", reason: "orphaned" });
  expect(records[0]?.error).toContain("is gone");
  expect(Date.now() - started).toBeLessThan(10_000);
  const files = await taskFiles(ws);
  expect(files).toEqual([{ version: 1, records: [expect.objectContaining({ taskId, status: "FAILED" })] }]);

  const shown = await runTasksCli(["tasks", "show", taskId, "--cwd", ws], ws);
  expect(shown.stdout).toContain("status:           FAILED (orphaned)");
  expect(shown.stdout).toMatch(
    /error: Task sub-\S+ \(general-purpose: Doomed job\) was orphaned while RUNNING/,
  );
});

test("an owner that stops heartbeating (SIGSTOP) is orphaned once its heartbeat is older than orphanTimeoutMs, not before", async () => {
  // The first look comes half-way, when the owner has been silent for ~1.5 s: long enough that a sweeper
  // ignoring the timeout would orphan it, with 1.5 s to spare for `agentry tasks list`'s start-up (~0.1 s).
  const ORPHAN_TIMEOUT_MS = 3_000;
  const ws = await tempWorkspace();
  await writeFile(
    join(ws, "agentry.json"),
    JSON.stringify({ subagents: { orphanTimeoutMs: ORPHAN_TIMEOUT_MS, heartbeatMs: 100 } }),
  );
  const { taskId } = await startOwner(ws);
  owner!.kill("SIGSTOP");
  try {
    const stoppedAt = Date.now();
    await sleep(ORPHAN_TIMEOUT_MS / 2);
    const early = await runTasksCli(["tasks", "list", "--json", "--cwd", ws], ws);
    // Had the listing itself taken past the timeout, the check below would prove nothing: say so.
    expect(Date.now() - stoppedAt, "tasks list took longer than the orphan timeout").toBeLessThan(
      ORPHAN_TIMEOUT_MS,
    );
    const [stale] = JSON.parse(early.stdout) as TaskRecord[];
    // Alive but silent for less than the timeout: still RUNNING.
    expect(stale).toMatchObject({ taskId, status: "RUNNING" });
    const lastBeat = Date.parse(stale!.updatedAt);
    await sleep(Math.max(0, lastBeat + ORPHAN_TIMEOUT_MS + 100 - Date.now()));
    const later = await runTasksCli(["tasks", "list", "--json", "--cwd", ws], ws);
    expect((JSON.parse(later.stdout) as TaskRecord[])[0]).toMatchObject({
      taskId,
      status: "FAILED",
      reason: "orphaned",
      error: expect.stringContaining("has sent no heartbeat for"),
    });
  } finally {
    owner!.kill("SIGKILL");
  }
});
