import { expect, it } from "vitest";
import type { NewTaskRecord } from "../../src/tasks/task-record.ts";
import { WorkspaceTaskStore } from "../../src/tasks/workspace/workspace-task-store.ts";
import { tempDir } from "../support/temp-dir.ts";
import { newTask } from "./task-store.conformance.ts";

// The record's schema, as a store applies it to what it is asked to write: a refused field is named,
// with what it may hold; every documented value goes through.

const ID_RULE = 'must use letters, digits, ".", "_" and "-" only (at most 128, not starting with "." or "-")';

async function store() {
  return new WorkspaceTaskStore({ workspace: await tempDir("agentry-task-record-") });
}

it.each<[keyof NewTaskRecord, string]>([
  ["taskId", "-starts-with-dash"],
  ["parentAgentId", ".hidden"],
  ["parentSessionId", "a/b"],
])("refuses a record whose %s is not an id, saying what an id may hold", async (field, value) => {
  const tasks = await store();
  await expect(tasks.create(newTask("t1", { [field]: value }))).rejects.toThrow(`${field} ${ID_RULE}`);
});

it("refuses a message whose id is not an id, and a timestamp that is not ISO 8601 UTC", async () => {
  const tasks = await store();
  await tasks.create(newTask("t1", { status: "RUNNING" }));
  await expect(
    tasks.sendMessage("t1", { id: "-m1", text: "hi", at: new Date().toISOString() }),
  ).rejects.toThrow(`message id ${ID_RULE}`);
  await expect(tasks.sendMessage("t1", { id: "m1", text: "hi", at: "yesterday" })).rejects.toThrow(
    'invalid message "at": must be an ISO 8601 UTC timestamp.',
  );
  await expect(tasks.create(newTask("t2", { createdAt: "2026-01-01 10:00" }))).rejects.toThrow(
    'invalid "createdAt": must be an ISO 8601 UTC timestamp.',
  );
});

it.each(["limit", "retry_after", "rate_limit"] as const)(
  "keeps a running child's wait for its endpoint (%s) through a write and a read",
  async (reason) => {
    const tasks = await store();
    await tasks.create(newTask("t1", { status: "RUNNING" }));
    const activity = { turns: 1, tokensIn: 10, tokensOut: 2, tools: [], waiting: { reason, limit: 4 } };
    await tasks.update("t1", { activity });
    expect((await tasks.get("t1"))?.activity).toEqual(activity);
  },
);
