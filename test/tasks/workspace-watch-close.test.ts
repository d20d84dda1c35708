import { execFile } from "node:child_process";
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { expect, it } from "vitest";
import { agentsDir } from "../../src/tasks/workspace/workspace-layout.ts";
import { WorkspaceTaskStore } from "../../src/tasks/workspace/workspace-task-store.ts";
import { WorkspaceWatch } from "../../src/tasks/workspace/workspace-watch.ts";
import { waitFor } from "../support/processes.ts";
import { tempDir } from "../support/temp-dir.ts";
import { scaled } from "../support/time-scale.ts";
import { listenTo, NO_RESCAN, ProbedSource, watchedDirs, watching } from "./support/watch-probe.ts";
import { newTask } from "./task-store.conformance.ts";

// A workspace store's watch holds inotify watches only while someone listens (Linux shows each one in
// /proc/self/fdinfo), and never keeps a process alive.

async function workspaceWithTasks(...ids: string[]) {
  const workspace = await tempDir("agentry-watch-close-");
  const writer = new WorkspaceTaskStore({ workspace });
  for (const id of ids) await writer.create(newTask(id));
  const agents = agentsDir(workspace);
  return { workspace, writer, dirs: [agents, join(agents, "main"), join(agents, "main/tasks")] };
}

it("holds watches only while someone listens, and a new listener starts afresh", async () => {
  const { workspace, writer, dirs } = await workspaceWithTasks("t1", "t2");
  const source = new ProbedSource(workspace);
  const watch = new WorkspaceWatch(source, NO_RESCAN);

  const first = listenTo(watch);
  await watching(dirs);
  await source.loaded(1); // what the file held when it began
  await writer.update("t1", { status: "RUNNING" });
  await first.hears("t1");
  // The records it found when it began are not news; t2 never changed.
  expect(first.ids()).toEqual(["t1"]);

  first.stop();
  expect(watchedDirs(dirs)).toEqual([]);

  const loads = source.loads;
  const second = listenTo(watch);
  await watching(dirs);
  await source.loaded(loads + 1);
  await writer.update("t2", { status: "RUNNING" });
  await second.hears("t2");
  // It compares with what the file held when it began, not with nothing: t1 did not change.
  expect(second.ids()).toEqual(["t2"]);
  second.stop();
  expect(watchedDirs(dirs)).toEqual([]);
});

it("tells new listeners nothing of a look begun for listeners that have all gone", async () => {
  const { workspace, writer, dirs } = await workspaceWithTasks("t1", "t2");
  const source = new ProbedSource(workspace);
  const watch = new WorkspaceWatch(source, NO_RESCAN);
  const first = listenTo(watch);
  await watching(dirs);
  await source.loaded(1);
  source.hold();
  await writer.update("t1", { status: "RUNNING" });
  await source.held(); // the look this write started waits in its load
  first.stop();

  const loads = source.loads;
  const second = listenTo(watch); // its first look waits in its load too, behind the old one
  await waitFor(() => source.waiting === 2, 10_000, "both looks held");
  source.release(); // the old look goes on first
  await source.loaded(loads + 2);
  await writer.update("t2", { status: "RUNNING" });
  await second.hears("t2");
  // Not t1 and t2 as news from the old look (it found nothing known, closing had cleared it).
  expect(second.ids()).toEqual(["t2"]);
  second.stop();
});

it("leaves no watch behind when it closes before its folder listing came back", async () => {
  const { workspace, dirs } = await workspaceWithTasks("t1");
  const watch = new WorkspaceWatch(new ProbedSource(workspace), NO_RESCAN);
  watch.add(() => {})();
  // Listings queued after the watch's own have come back, and so (almost surely) has the watch's.
  for (let i = 0; i < 3; i++) await readdir(dirs[0]!);
  expect(watchedDirs(dirs)).toEqual([]);
});

it.each([
  ["watches its folders", true],
  ["looks at a workspace with no .agentry every second", false],
])("does not keep a process alive while it %s", async (_, withTasks) => {
  const workspace = withTasks
    ? (await workspaceWithTasks("t1")).workspace
    : await tempDir("agentry-watch-close-");
  const store = new URL("../../src/tasks/workspace/workspace-task-store.ts", import.meta.url).href;
  const script = `
    const { WorkspaceTaskStore } = await import(${JSON.stringify(store)});
    new WorkspaceTaskStore({ workspace: ${JSON.stringify(workspace)} }).watch(() => {});
  `;
  // Ends by itself once its script has run; the bound only catches a process kept alive.
  await promisify(execFile)(process.execPath, ["--input-type=module", "-e", script], {
    timeout: scaled(20_000),
  });
});
