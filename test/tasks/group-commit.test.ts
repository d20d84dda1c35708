import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { WorkspaceTaskStore } from "../../src/tasks/workspace/workspace-task-store.ts";
import { tempDir } from "../support/temp-dir.ts";
import { newTask } from "./task-store.conformance.ts";

describe("group commit of concurrent writes to one task file", () => {
  it("applies every concurrent update in order, and a failing one fails only its own call", async () => {
    const workspace = await tempDir("agentry-group-");
    const store = new WorkspaceTaskStore({ workspace });
    await store.create(newTask("sub-a", { parentSessionId: "s1" }));
    await store.create(newTask("sub-b", { parentSessionId: "s1" }));

    const appends = Array.from({ length: 30 }, (_, i) =>
      store.update("sub-a", (current) => ({ result: `${current.result ?? ""}${i},` })),
    );
    const failing = store.update("sub-b", () => {
      throw new Error("this patch is broken");
    });
    const sibling = store.update("sub-b", { description: "still written" });
    const results = await Promise.allSettled([...appends, failing, sibling]);

    expect(results.slice(0, 30).every((r) => r.status === "fulfilled")).toBe(true);
    expect(results[30]).toMatchObject({ status: "rejected", reason: { message: "this patch is broken" } });
    expect(results[31]?.status).toBe("fulfilled");
    const expected = Array.from({ length: 30 }, (_, i) => `${i},`).join("");
    expect((await store.get("sub-a"))?.result).toBe(expected);
    expect((await store.get("sub-b"))?.description).toBe("still written");

    // A fresh store (another process's view) reads the same from disk.
    const fresh = new WorkspaceTaskStore({ workspace });
    expect((await fresh.get("sub-a"))?.result).toBe(expected);
    const file = join(workspace, ".agentry", "agents", "main", "tasks", "s1.json");
    expect(JSON.parse(await readFile(file, "utf8")).records).toHaveLength(2);
  });
});
