import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { WorkspaceTaskStore } from "../../src/tasks/workspace/workspace-task-store.ts";
import { tempDir } from "../support/temp-dir.ts";
import { listenTo } from "./support/watch-probe.ts";
import { newTask } from "./task-store.conformance.ts";

describe("WorkspaceTaskStore.watch", () => {
  it("hears the writes of another store on the workspace, by the ids whose records changed", async () => {
    const workspace = await tempDir("agentry-watch-");
    await mkdir(join(workspace, ".agentry/agents"), { recursive: true });
    const watcher = new WorkspaceTaskStore({ workspace });
    const writer = new WorkspaceTaskStore({ workspace });
    const heard = listenTo(watcher);
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
    const heard = listenTo(watcher);
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
    const kept = listenTo(watcher);
    const left = listenTo(watcher);
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
