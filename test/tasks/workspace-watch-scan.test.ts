import { mkdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { expect, it } from "vitest";
import { agentsDir } from "../../src/tasks/workspace/workspace-layout.ts";
import { WorkspaceTaskStore } from "../../src/tasks/workspace/workspace-task-store.ts";
import { WorkspaceWatch } from "../../src/tasks/workspace/workspace-watch.ts";
import { waitFor } from "../support/processes.ts";
import { tempDir } from "../support/temp-dir.ts";
import { listenTo, NO_RESCAN, ProbedSource, watchedDirs, watching } from "./support/watch-probe.ts";
import { newTask } from "./task-store.conformance.ts";

// What a workspace store's watch reports, and when it looks: each id whose record changed, once, from
// the folders' events (no periodic rescan here unless a test asks for one), or from a rescan where
// a folder cannot be watched.

async function workspace() {
  const dir = await tempDir("agentry-watch-scan-");
  const agents = agentsDir(dir);
  return {
    dir,
    agents,
    writer: new WorkspaceTaskStore({ workspace: dir }),
    main: [agents, join(agents, "main"), join(agents, "main/tasks")],
  };
}

it("watches folders made after it began: a new agent's, and a tasks folder in an agent's folder", async () => {
  const { dir, agents, writer, main } = await workspace();
  await writer.create(newTask("t1"));
  await mkdir(join(agents, "explore-1")); // an agent's folder with no tasks yet
  await writeFile(join(agents, "reviewer.md"), "---\nname: reviewer\n---\n"); // an agent definition
  const source = new ProbedSource(dir);
  const heard = listenTo(new WorkspaceWatch(source, NO_RESCAN));
  try {
    await watching([...main, join(agents, "explore-1")]);
    // The same listing of agents/ found the definition: it is not a folder, and is not watched.
    expect(watchedDirs([join(agents, "reviewer.md")])).toEqual([]);
    await source.loaded(1);

    await writer.create(newTask("t2", { parentAgentId: "explore-1", parentSessionId: "sub-1" }));
    await heard.hears("t2");
    await watching([join(agents, "explore-1/tasks")]);
    await writer.update("t2", { status: "RUNNING" });
    await heard.hears("t2", 2);

    await writer.create(newTask("t3", { parentAgentId: "review-2", parentSessionId: "sub-2" }));
    await heard.hears("t3");
    await watching([join(agents, "review-2"), join(agents, "review-2/tasks")]);
    await writer.update("t3", { status: "RUNNING" });
    await heard.hears("t3", 2);
    expect(heard.ids()).toEqual(["t2", "t2", "t3", "t3"]);
  } finally {
    heard.stop();
  }
});

it("reports the records a file no longer holds, and those of a file removed, once", async () => {
  const { dir, writer, main } = await workspace();
  for (const [id, session] of [
    ["t1", "s1"],
    ["t3", "s2"],
  ] as const) {
    await writer.create(newTask(id, { parentSessionId: session, status: "RUNNING" }));
    await writer.update(id, { status: "COMPLETED", result: "done" });
  }
  await writer.create(newTask("t2", { status: "RUNNING" }));
  const source = new ProbedSource(dir);
  const heard = listenTo(new WorkspaceWatch(source, NO_RESCAN));
  try {
    await watching(main);
    await source.loaded(2);

    await writer.removeFinished(["t1"]); // s1.json keeps t2
    await heard.hears("t1");
    await writer.removeFinished(["t3"]); // s2.json is removed
    await heard.hears("t3");
    await writer.update("t2", { status: "COMPLETED", result: "done" });
    await heard.hears("t2");
    expect(heard.ids()).toEqual(["t1", "t3", "t2"]);
  } finally {
    heard.stop();
  }
});

it("looks again, after a scan, at a change that came during it, and never runs two scans at once", async () => {
  const { dir, writer, main } = await workspace();
  await writer.create(newTask("t1"));
  const settleMs = 5;
  const source = new ProbedSource(dir);
  const heard = listenTo(new WorkspaceWatch(source, { ...NO_RESCAN, settleMs }));
  try {
    await watching(main);
    await source.loaded(1);

    source.hold();
    await writer.update("t1", { status: "RUNNING" });
    await source.held(); // a scan has read the file and waits
    await writer.create(newTask("t2"));
    // The write's events have reached the watch (a poll phase has passed), and the settle timers they
    // set, started before this one with the same delay, have fired.
    await new Promise(setImmediate);
    await new Promise(setImmediate);
    await sleep(settleMs);
    source.release();

    await heard.hears("t2");
    expect(heard.ids()).toEqual(["t1", "t2"]);
    expect(source.overlapped).toBe(false);
  } finally {
    heard.stop();
  }
});

it("does not hide a change waiting to be looked at when a second listener joins", async () => {
  const { dir, writer, main } = await workspace();
  await writer.create(newTask("t1"));
  const source = new ProbedSource(dir);
  // A long settle: the second listener surely joins before the watch looks at the write.
  const watch = new WorkspaceWatch(source, { ...NO_RESCAN, settleMs: 1_000 });
  const first = listenTo(watch);
  try {
    await watching(main);
    await source.loaded(1);
    await writer.update("t1", { status: "RUNNING" });
    const second = listenTo(watch);
    await first.hears("t1");
    await second.hears("t1");
    second.stop();
  } finally {
    first.stop();
  }
});

it.each([
  ["no .agentry yet", false],
  ["a .agentry it cannot watch (a file in the way)", true],
])("looks every so often at a workspace with %s, and hears it once it is there", async (_, blocked) => {
  const { dir, writer } = await workspace();
  if (blocked) await writeFile(join(dir, ".agentry"), "not a folder");
  const source = new ProbedSource(dir);
  const heard = listenTo(new WorkspaceWatch(source, { rescanMs: 20 }));
  try {
    // It looked again by itself, with nothing heard: the rescan runs.
    await waitFor(() => source.scans >= 2, 10_000, "a rescan");
    if (blocked) await rm(join(dir, ".agentry"));
    await writer.create(newTask("t1"));
    await heard.hears("t1");
    await writer.update("t1", { status: "RUNNING" });
    await heard.hears("t1", 2);
    expect(heard.ids()).toEqual(["t1", "t1"]);
  } finally {
    heard.stop();
  }
});

it.each([
  ["an agent's folder", "main", NO_RESCAN],
  // Nothing above agents/ is watched: it is looked at every so often until it is back.
  ["the whole .agentry", "..", { rescanMs: 20 }],
])("watches %s again once it was removed and made anew", async (_, gone, timing) => {
  const { dir, agents, writer, main } = await workspace();
  await writer.create(newTask("t1"));
  const source = new ProbedSource(dir);
  const heard = listenTo(new WorkspaceWatch(source, timing));
  try {
    await watching(main);
    await source.loaded(1);
    await rm(join(agents, gone), { recursive: true });
    await heard.hears("t1");
    await writer.create(newTask("t2"));
    await heard.hears("t2");
    await watching(main);
    await writer.update("t2", { status: "RUNNING" });
    await heard.hears("t2", 2);
    expect(heard.ids()).toEqual(["t1", "t2", "t2"]);
  } finally {
    heard.stop();
  }
});
