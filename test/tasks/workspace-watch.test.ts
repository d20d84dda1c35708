import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { TaskChange } from "../../src/tasks/task-store.ts";
import { WorkspaceTaskStore } from "../../src/tasks/workspace/workspace-task-store.ts";
import { waitFor } from "../support/processes.ts";
import { tempDir } from "../support/temp-dir.ts";
import { newTask } from "./task-store.conformance.ts";

/** What one watcher heard, and a wait for an id among it (bounds only catch a hang). */
function listen(store: WorkspaceTaskStore) {
  const heard: TaskChange[] = [];
  const stop = store.watch((change) => heard.push(change));
  const ids = () => heard.flatMap((change) => (change.kind === "changed" ? change.taskIds : []));
  return {
    heard,
    stop,
    ids,
    /** Resolves once `id` was heard `times` times in all. */
    hears: (id: string, times = 1) =>
      waitFor(() => ids().filter((seen) => seen === id).length >= times, 10_000),
  };
}

describe("WorkspaceTaskStore.watch", () => {
  it("hears the writes of another store on the workspace, by the ids whose records changed", async () => {
    const workspace = await tempDir("agentry-watch-");
    await mkdir(join(workspace, ".agentry/agents"), { recursive: true });
    const watcher = new WorkspaceTaskStore({ workspace });
    const writer = new WorkspaceTaskStore({ workspace });
    const heard = listen(watcher);
    try {
      await writer.create(newTask("t1", { status: "RUNNING" }));
      await heard.hears("t1");
      await writer.create(newTask("t2", { status: "RUNNING" }));
      await heard.hears("t2");
      // t1 is in the same file, unchanged: it is not reported again.
      expect(heard.ids().filter((id) => id === "t1")).toHaveLength(1);

      await writer.requestCancel("t1");
      await heard.hears("t1", 2);
      await writer.sendMessage("t2", { id: "m1", text: "hello", at: new Date().toISOString() });
      await heard.hears("t2", 2);
      // A folder made after the watch began (another parent agent's tasks).
      await writer.create(newTask("t3", { parentAgentId: "explore-1", parentSessionId: "sub-1" }));
      await heard.hears("t3");
      expect(heard.heard.every((change) => change.kind === "changed")).toBe(true);
    } finally {
      heard.stop();
    }
  });

  it("hears a workspace that had no .agentry when the watch began", async () => {
    const workspace = await tempDir("agentry-watch-");
    const watcher = new WorkspaceTaskStore({ workspace });
    const heard = listen(watcher);
    try {
      await new WorkspaceTaskStore({ workspace }).create(newTask("first"));
      await heard.hears("first");
    } finally {
      heard.stop();
    }
  });

  it("stops telling a listener once it stopped watching", async () => {
    const workspace = await tempDir("agentry-watch-");
    await mkdir(join(workspace, ".agentry/agents"), { recursive: true });
    const watcher = new WorkspaceTaskStore({ workspace });
    const writer = new WorkspaceTaskStore({ workspace });
    const kept = listen(watcher);
    const left = listen(watcher);
    left.stop();
    try {
      await writer.create(newTask("t1"));
      await kept.hears("t1");
      expect(left.ids()).toEqual([]);
    } finally {
      kept.stop();
    }
  });
});
