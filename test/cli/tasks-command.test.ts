import { mkdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { Command, CommanderError } from "commander";
import { expect, test } from "vitest";
import {
  DEFAULT_ORPHAN_TIMEOUT_S,
  registerTasksCommand,
} from "../../src/cli/commands/tasks/tasks-command.ts";
import { EXIT_CODE_FOR_FAULT } from "../../src/cli/exit-codes.ts";
import type { CliIo } from "../../src/cli/io.ts";
import { isAgentryError } from "../../src/errors/agentry-error.ts";
import { formatIdentity, localProcess } from "../../src/state/process-identity.ts";
import { DEFAULT_SUBAGENT_LIMITS } from "../../src/subagents/tree/limits.ts";
import { currentOwner } from "../../src/tasks/owner.ts";
import type { NewTaskRecord, TaskRecord } from "../../src/tasks/task-record.ts";
import { WorkspaceTaskStore } from "../../src/tasks/workspace/workspace-task-store.ts";
import { tempDir } from "../support/temp-dir.ts";
import { deadPid } from "../tasks/support/dead-pid.ts";

let workspace: string | undefined;

/** Runs `agentry <args>` in this process with captured streams; returns the exit code and output. */
async function cli(args: string[], cwd: string, env: Record<string, string> = {}) {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = "";
  let err = "";
  stdout.on("data", (chunk: Buffer) => {
    out += chunk.toString();
  });
  stderr.on("data", (chunk: Buffer) => {
    err += chunk.toString();
  });
  const io: CliIo = { stdin: new PassThrough(), stdout, stderr, env: { HOME: cwd, ...env }, cwd };
  const result = { exitCode: 0 };
  const program = new Command("agentry")
    .exitOverride()
    .configureOutput({ writeOut: (text) => stdout.write(text), writeErr: (text) => stderr.write(text) });
  registerTasksCommand(program, { io, result });
  let code: number;
  try {
    await program.parseAsync(args, { from: "user" });
    code = result.exitCode;
  } catch (error) {
    if (error instanceof CommanderError) code = error.exitCode === 0 ? 0 : 2;
    else if (isAgentryError(error)) {
      err += `agentry: ${error.message}\n`;
      code = EXIT_CODE_FOR_FAULT[error.kind];
    } else throw error;
  }
  return { code, stdout: out, stderr: err };
}

const record = (taskId: string, extra: Partial<NewTaskRecord> = {}): NewTaskRecord => ({
  taskId,
  agentType: "explore",
  parentAgentId: "main",
  parentSessionId: "20250101-000000-abcdef",
  childSessionId: taskId,
  description: `Job ${taskId}`,
  owner: currentOwner(),
  background: true,
  ...extra,
});

async function seeded() {
  workspace = await tempDir("agentry-tasks-cli-");
  const store = new WorkspaceTaskStore({ workspace });
  await store.create(
    record("sub-done", { status: "COMPLETED", result: "All good.", createdAt: "2025-01-01T00:00:00.000Z" }),
  );
  await store.create(record("sub-live", { status: "RUNNING" }));
  return { ws: workspace, store };
}

test("tasks list prints a table, newest first, and filters by status (any case)", async () => {
  const { ws } = await seeded();
  const all = await cli(["tasks", "list", "--cwd", ws], ws);
  expect(all.code).toBe(0);
  const lines = all.stdout.trimEnd().split("\n");
  expect(lines[0]).toMatch(/^TASK ID +STATUS +AGENT +AGE +BG +PARENT SESSION +DESCRIPTION$/);
  expect(lines.slice(1).map((line) => line.split(/\s+/).slice(0, 3))).toEqual([
    ["sub-live", "RUNNING", "explore"],
    ["sub-done", "COMPLETED", "explore"],
  ]);
  const running = await cli(["tasks", "list", "--status", "running", "--json", "--cwd", ws], ws);
  expect((JSON.parse(running.stdout) as Array<{ taskId: string }>).map((r) => r.taskId)).toEqual([
    "sub-live",
  ]);
  const none = await cli(["tasks", "list", "--status", "FAILED", "--cwd", ws], ws);
  expect(none).toMatchObject({ code: 0, stdout: "" });
  expect(none.stderr).toBe(`No tasks with status FAILED in ${ws}.\n`);
});

test("tasks list --limit shows the newest n and says how many there are; --json lists all", async () => {
  const { ws } = await seeded();
  const one = await cli(["tasks", "list", "--limit", "1", "--cwd", ws], ws);
  expect(one.code).toBe(0);
  expect(one.stdout.trimEnd().split("\n").slice(1)).toHaveLength(1);
  expect(one.stdout).toContain("sub-live");
  expect(one.stderr).toBe("(the newest 1 of 2 tasks; --limit 0 shows all)\n");
  const json = await cli(["tasks", "list", "--json", "--cwd", ws], ws);
  expect(JSON.parse(json.stdout)).toHaveLength(2);
  const bad = await cli(["tasks", "list", "--limit", "-3", "--cwd", ws], ws);
  expect(bad.code).toBe(2);
});

test("bad input: an unknown status, an unknown task, a bad timeout are usage errors", async () => {
  const { ws } = await seeded();
  const status = await cli(["tasks", "list", "--status", "DONE", "--cwd", ws], ws);
  expect(status.code).toBe(2);
  expect(status.stderr).toContain("must be one of PENDING, RUNNING, COMPLETED, FAILED, CANCELLED.");
  const unknown = await cli(["tasks", "show", "sub-nope", "--cwd", ws], ws);
  expect(unknown).toMatchObject({ code: 2 });
  expect(unknown.stderr).toBe(
    `agentry: No task "sub-nope" in ${ws}. List the tasks with: agentry tasks list\n`,
  );
  const invalid = await cli(["tasks", "show", "../x", "--cwd", ws], ws);
  expect(invalid.code).toBe(2);
  expect(invalid.stderr).toContain('Invalid taskId "../x"');
  const timeout = await cli(["tasks", "wait", "sub-live", "--timeout", "soon", "--cwd", ws], ws);
  expect(timeout.code).toBe(2);
  expect(timeout.stderr).toContain("must be a positive number of seconds.");
});

test("tasks show prints the record and its result; wait returns at once for a finished task", async () => {
  const { ws } = await seeded();
  const shown = await cli(["tasks", "show", "sub-done", "--cwd", ws], ws);
  expect(shown.stdout).toContain("status:           COMPLETED\n");
  expect(shown.stdout).toContain("transcript:       agentry sessions show sub-done\n");
  expect(shown.stdout.endsWith("\nresult:\nAll good.\n")).toBe(true);
  const waited = await cli(["tasks", "wait", "sub-done", "--json", "--cwd", ws], ws);
  expect(waited.code).toBe(0);
  expect(JSON.parse(waited.stdout)).toMatchObject({
    timedOut: false,
    task: { taskId: "sub-done", result: "All good." },
  });
});

test("tasks wait gives up at --timeout with exit 1; cancel of a finished task changes nothing", async () => {
  const { ws, store } = await seeded();
  const waited = await cli(["tasks", "wait", "sub-live", "--timeout", "0.3", "--cwd", ws], ws);
  expect(waited).toMatchObject({
    code: 1,
    stdout: "",
    stderr: "Task sub-live is still RUNNING after 0.3 s.\n",
  });
  const cancelled = await cli(["tasks", "cancel", "sub-done", "--cwd", ws], ws);
  expect(cancelled).toMatchObject({
    code: 0,
    stdout: "Task sub-done had already finished: COMPLETED. Nothing to cancel.\n",
  });
  expect((await store.get("sub-done"))?.cancelRequested).toBe(false);
});

test("tasks cancel of a task whose owner never answers sets the flag and exits 1 after --wait", async () => {
  const { ws, store } = await seeded();
  const cancelled = await cli(["tasks", "cancel", "sub-live", "--wait", "0.3", "--cwd", ws], ws);
  expect(cancelled.code).toBe(1);
  expect(cancelled.stderr).toMatch(
    /^Cancel requested for task sub-live, but its owner \S+ has not confirmed within 0.3 s \(status RUNNING\)/,
  );
  expect(await store.get("sub-live")).toMatchObject({ status: "RUNNING", cancelRequested: true });
});

test("help texts explain statuses, reasons, the orphan timeout and the exit codes", async () => {
  const ws = await tempDir("agentry-tasks-cli-");
  workspace = ws;
  expect(DEFAULT_ORPHAN_TIMEOUT_S * 1000).toBe(DEFAULT_SUBAGENT_LIMITS.orphanTimeoutMs);
  const help = await cli(["tasks", "--help"], ws);
  expect(help.stdout).toContain("list [options]");
  expect(help.stdout).toContain("cancel [options] <task-id>");
  expect(help.stdout).toContain("Statuses: PENDING (queued), RUNNING, COMPLETED, FAILED, CANCELLED.");
  expect(help.stdout).toContain(
    "orphaned (its process died or stopped heartbeating), stalled, budget, timeout,",
  );
  expect(help.stdout).toContain("default 30 s");
  const wait = await cli(["tasks", "wait", "--help"], ws);
  expect(wait.stdout).toContain(
    "Exit 0 when it COMPLETED, 1 when it FAILED or was CANCELLED or is still running at --timeout,",
  );
  expect(wait.stdout).toContain("--timeout <seconds>");
  const cancel = await cli(["tasks", "cancel", "--help"], ws);
  expect(cancel.stdout).toContain(
    "Exit 0 when the task ended (or had already finished), 1 when its owner did not confirm in time,",
  );
});

test("tasks list fails orphans first, then lists them as they are now; an unreadable file is one warning", async () => {
  const { ws, store } = await seeded();
  await store.create(
    record("sub-dead", { status: "RUNNING", owner: formatIdentity(localProcess(await deadPid())) }),
  );
  await writeFile(join(ws, ".agentry", "agents", "main", "tasks", "broken.json"), "{ not json");
  const running = await cli(["tasks", "list", "--status", "RUNNING", "--cwd", ws], ws);
  expect(running.code).toBe(0);
  expect(running.stdout).toContain("sub-live");
  expect(running.stdout).not.toContain("sub-dead");
  expect(running.stderr).toMatch(/^warning: Cannot read task file \S+broken\.json: not valid JSON[^\n]*\n$/);
  const failed = await cli(["tasks", "list", "--status", "FAILED", "--json", "--cwd", ws], ws);
  expect(JSON.parse(failed.stdout)).toMatchObject([
    { taskId: "sub-dead", status: "FAILED", reason: "orphaned", error: expect.stringContaining("is gone") },
  ]);
});

test("tasks list reads the orphan timeout from a config file, and still refuses a bad one", async () => {
  const { ws, store } = await seeded();
  const silent = new Date(Date.now() - 5000).toISOString();
  // Its owner cannot be checked from here (another host): silence decides.
  await store.create(
    record("sub-quiet", { status: "RUNNING", owner: "other-host:1", createdAt: silent, updatedAt: silent }),
  );
  const list = async (env: Record<string, string> = {}) => {
    const listed = await cli(["tasks", "list", "--json", "--cwd", ws], ws, env);
    return { ...listed, records: listed.code === 0 ? (JSON.parse(listed.stdout) as TaskRecord[]) : [] };
  };
  // Silent for 5 s: alive under the default timeout (30 s)…
  expect((await list()).records.find((r) => r.taskId === "sub-quiet")?.status).toBe("RUNNING");
  // …a bad setting in the environment or a bad config file is still an error…
  expect(await list({ AGENTRY_MAX_TURNS: "many" })).toMatchObject({ code: 2 });
  await writeFile(join(ws, "agentry.json"), '{"subagents": {"orphanTimeoutMs": "soon"}}');
  const bad = await list();
  expect(bad.code).toBe(2);
  expect(bad.stderr).toContain("agentry.json");
  // …and orphaned under a configured 1 s (here in the user's config file; HOME is the workspace).
  await rm(join(ws, "agentry.json"));
  await mkdir(join(ws, ".config", "agentry"), { recursive: true });
  await writeFile(join(ws, ".config", "agentry", "config.json"), '{"subagents": {"orphanTimeoutMs": 1000}}');
  expect((await list()).records.find((r) => r.taskId === "sub-quiet")).toMatchObject({
    status: "FAILED",
    reason: "orphaned",
  });
});
