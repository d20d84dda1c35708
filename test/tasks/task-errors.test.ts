import { writeFile } from "node:fs/promises";
import { expect, it } from "vitest";
import { errorKind } from "../../src/errors/agentry-error.ts";
import type { TaskStatus } from "../../src/tasks/task-record.ts";
import { acquireFileLock } from "../../src/tasks/workspace/file-lock.ts";
import { taskFilePath } from "../../src/tasks/workspace/workspace-layout.ts";
import { WorkspaceTaskStore } from "../../src/tasks/workspace/workspace-task-store.ts";
import { tempDir } from "../support/temp-dir.ts";
import { newTask } from "./task-store.conformance.ts";

// The errors a store throws, as the CLI and the tools see them: who must act (`errorKind`: the CLI
// exits 2 for "user"), the class's name, and a message naming the task, file or lock.

async function thrown(action: () => Promise<unknown>): Promise<Error & Record<string, unknown>> {
  try {
    await action();
  } catch (error) {
    return error as Error & Record<string, unknown>;
  }
  throw new Error("it did not throw");
}

const described = (error: Error) => ({ name: error.name, kind: errorKind(error), message: error.message });

async function store() {
  const workspace = await tempDir("agentry-task-errors-");
  return { workspace, store: new WorkspaceTaskStore({ workspace }) };
}

it("a task that is not there, or already there, is the caller's fault, named by its id", async () => {
  const { store: tasks } = await store();
  await tasks.create(newTask("t1"));
  const missing = await thrown(() => tasks.update("nope", { status: "RUNNING" }));
  expect(described(missing)).toEqual({
    name: "TaskNotFoundError",
    kind: "user",
    message: 'No task with id "nope".',
  });
  expect(missing.taskId).toBe("nope");
  const twice = await thrown(() => tasks.create(newTask("t1")));
  expect(described(twice)).toEqual({
    name: "TaskExistsError",
    kind: "user",
    message: 'A task with id "t1" already exists.',
  });
  expect(twice.taskId).toBe("t1");
});

it.each<[TaskStatus, TaskStatus, string]>([
  [
    "COMPLETED",
    "RUNNING",
    " A finished task goes back to work only when resumed (update with { resume: true }).",
  ],
  [
    "COMPLETED",
    "PENDING",
    " A finished task goes back to work only when resumed (update with { resume: true }).",
  ],
  ["COMPLETED", "FAILED", " It has already finished."],
  ["RUNNING", "PENDING", ""],
])("a task that cannot go from %s to %s says why", async (from, to, hint) => {
  const { store: tasks } = await store();
  await tasks.create(newTask("t1", { status: "RUNNING" }));
  if (from === "COMPLETED") await tasks.update("t1", { status: "COMPLETED", result: "done" });
  const error = await thrown(() => tasks.update("t1", { status: to }));
  expect(described(error)).toEqual({
    name: "IllegalTransitionError",
    kind: "user",
    message: `Task t1 cannot go from ${from} to ${to}.${hint}`,
  });
  expect([error.taskId, error.from, error.to]).toEqual(["t1", from, to]);
});

it("a request the store cannot take is the caller's fault", async () => {
  const { store: tasks } = await store();
  const error = await thrown(() => tasks.list({ limit: 0 }));
  expect(described(error)).toMatchObject({ name: "TaskStoreError", kind: "user" });
  expect(error.message).toMatch(/"limit" must be a positive integer/);
});

it("a damaged task file is the system's fault, and names the file", async () => {
  const { workspace, store: tasks } = await store();
  await tasks.create(newTask("t1"));
  const path = taskFilePath(workspace, "main", "s1");
  await writeFile(path, "{ not json");
  const error = await thrown(() => tasks.list());
  expect(described(error)).toMatchObject({ name: "TaskFileError", kind: "system" });
  expect(error.message).toMatch(new RegExp(`^Cannot read task file ${path}: not valid JSON`));
  expect(error.location).toBe(path);
});

it("a lock held too long is the system's fault, and says how to clear it", async () => {
  const { workspace } = await store();
  const tasks = new WorkspaceTaskStore({ workspace, lock: { timeoutMs: 100 } });
  await tasks.create(newTask("t1"));
  const path = taskFilePath(workspace, "main", "s1");
  const release = await acquireFileLock(path, { owner: "other-host:42" }); // a live holder elsewhere
  try {
    const error = await thrown(() => tasks.update("t1", { status: "RUNNING" }));
    expect(described(error)).toMatchObject({ name: "LockTimeoutError", kind: "system" });
    expect(error.message).toBe(
      `Timed out after ${/\d+ ms/.exec(error.message)?.[0]} waiting for the lock ${path}.lock (held by other-host:42). ` +
        "If no agentry process is using this workspace, delete the lock file.",
    );
    expect(error.lockPath).toBe(`${path}.lock`);
  } finally {
    await release();
  }
});
