import { mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { WorkspaceTaskStore } from "../../src/tasks/workspace/workspace-task-store.ts";
import { tempDir } from "../support/temp-dir.ts";
import { taskStoreConformance } from "./task-store.conformance.ts";

taskStoreConformance("workspace files", async () => {
  const workspace = await tempDir("agentry-tasks-");
  const file = (agent: string, session: string) =>
    join(workspace, ".agentry/agents", agent, "tasks", `${session}.json`);
  return {
    open: (options = {}) => new WorkspaceTaskStore({ workspace, ...options }),
    async writeRaw(agent, session, text) {
      const path = file(agent, session);
      await mkdir(dirname(path), { recursive: true });
      await writeFile(path, text);
      return path;
    },
    readRaw: (agent, session) => readFile(file(agent, session), "utf8"),
  };
});
