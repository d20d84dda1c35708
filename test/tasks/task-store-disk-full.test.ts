import { readdir } from "node:fs/promises";
import { dirname } from "node:path";
import { expect, it } from "vitest";
import { DiskFullError } from "../../src/state/disk-full.ts";
import { taskFilePath } from "../../src/tasks/workspace/workspace-layout.ts";
import { WorkspaceTaskStore } from "../../src/tasks/workspace/workspace-task-store.ts";
import { describeNeeding } from "../support/components.ts";
import { canMountTmpfs, fillDisk, TMPFS_MISSING, tmpfsDir } from "../support/tmpfs.ts";

/** The workspace task store on a real full disk (a small tmpfs): a write is lost whole, and says where. */
describeNeeding(
  { present: canMountTmpfs(), what: "a tmpfs mount", missing: TMPFS_MISSING },
  "task records on a full disk",
  () => {
    it("an update the disk cannot take: DiskFullError naming the task file, which keeps its records", async () => {
      const workspace = await tmpfsDir("256k");
      const store = new WorkspaceTaskStore({ workspace });
      await store.create({
        taskId: "t-1",
        agentType: "explore",
        parentAgentId: "main",
        parentSessionId: "s-1",
        childSessionId: "sub-1",
        description: "a task",
        owner: "host:1",
        background: true,
        status: "RUNNING",
      });
      fillDisk(workspace);
      const file = taskFilePath(workspace, "main", "s-1");
      const update = store.update("t-1", { status: "COMPLETED", result: "r".repeat(50_000) });
      await expect(update).rejects.toBeInstanceOf(DiskFullError);
      await expect(update).rejects.toThrow(`could not write ${file},`);
      const again = new WorkspaceTaskStore({ workspace });
      expect(await again.get("t-1")).toMatchObject({ status: "RUNNING", description: "a task" });
      // Neither the temp file of the write nor a lock draft is left behind.
      expect((await readdir(dirname(file))).sort()).toEqual(["s-1.json"]);
    });
  },
);
