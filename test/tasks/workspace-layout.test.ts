import { mkdir, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { expect, it } from "vitest";
import { TaskStoreError } from "../../src/tasks/task-errors.ts";
import { agentsDir, findTaskFiles, taskFilePath } from "../../src/tasks/workspace/workspace-layout.ts";
import { tempDir } from "../support/temp-dir.ts";

const RULE =
  'use letters, digits, ".", "_" and "-" only (at most 128 characters, not starting with a dot or dash).';

it("refuses an agent or session id that could leave the tasks folder, naming which and the rule", async () => {
  const workspace = await tempDir();
  expect(() => taskFilePath(workspace, "../x", "s1")).toThrow(`Invalid parentAgentId "../x": ${RULE}`);
  expect(() => taskFilePath(workspace, "main", "../../x")).toThrow(
    `Invalid parentSessionId "../../x": ${RULE}`,
  );
  await expect(findTaskFiles(workspace, { parentAgentId: "../.." })).rejects.toThrow(
    `Invalid parentAgentId "../..": ${RULE}`,
  );
  await expect(findTaskFiles(workspace, { parentSessionId: "../s" })).rejects.toThrow(TaskStoreError);
  await expect(findTaskFiles(workspace, { parentSessionId: "../s" })).rejects.toThrow(
    `Invalid parentSessionId "../s": ${RULE}`,
  );
});

it("finds the task files in scope, sorted, and nothing else of the agents folder", async () => {
  const workspace = await tempDir();
  const file = async (agent: string, name: string) => {
    await mkdir(join(agentsDir(workspace), agent, "tasks"), { recursive: true });
    await writeFile(join(agentsDir(workspace), agent, "tasks", name), "{}");
    return join(agentsDir(workspace), agent, "tasks", name);
  };
  // Made out of order, so the order found is the sorting's, not the making's.
  const zeta = await file("zeta", "s1.json");
  const longest = await file("alpha", `${"s".repeat(128)}.json`);
  const alphaS2 = await file("alpha", "s2.json");
  const alphaS1 = await file("alpha", "s1.json");
  // Not task files: a lock, a temp file, an unsafe name, a folder named like one, another agent's
  // definition file beside the agent folders.
  await file("alpha", "s1.json.lock");
  await file("alpha", ".s1.json.123.abc.tmp");
  await file("alpha", "abcde f.json");
  await file("alpha", `${"s".repeat(129)}.json`);
  await mkdir(join(agentsDir(workspace), "alpha", "tasks", "folder.json"));
  await writeFile(join(agentsDir(workspace), "helper.md"), "an agent definition");

  expect(await findTaskFiles(workspace, {})).toEqual([alphaS1, alphaS2, longest, zeta]);
  expect(await findTaskFiles(workspace, { parentAgentId: "alpha" })).toEqual([alphaS1, alphaS2, longest]);
  expect(await findTaskFiles(workspace, { parentSessionId: "s1" })).toEqual([alphaS1, zeta]);
  expect(await findTaskFiles(workspace, { parentAgentId: "zeta", parentSessionId: "s2" })).toEqual([]);
});

it("sorts what it finds by path, across agent folders too", async () => {
  const workspace = await tempDir();
  const made: string[] = [];
  for (const agent of ["main", "main-b", "main.c"]) {
    const dir = join(agentsDir(workspace), agent, "tasks");
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, "s1.json"), "{}");
    made.push(join(dir, "s1.json"));
  }
  // Folders are listed by name (main, main-b, main.c), but by path "main-b/…" and "main.c/…" come
  // before "main/…" ("-" and "." sort before "/").
  expect(await findTaskFiles(workspace, {})).toEqual([made[1], made[2], made[0]]);
});

it("counts folders that do not exist (or are files) as empty, and fails on any other error", async () => {
  const workspace = await tempDir();
  expect(await findTaskFiles(workspace, {})).toEqual([]);
  expect(await findTaskFiles(workspace, { parentAgentId: "nobody" })).toEqual([]);
  await mkdir(agentsDir(workspace), { recursive: true });
  await writeFile(join(agentsDir(workspace), "a-file"), "");
  expect(await findTaskFiles(workspace, { parentAgentId: "a-file" })).toEqual([]);
  await symlink("loop", join(agentsDir(workspace), "loop"));
  await expect(findTaskFiles(workspace, { parentAgentId: "loop" })).rejects.toMatchObject({ code: "ELOOP" });
});
