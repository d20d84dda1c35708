import { existsSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { Session } from "../../../src/agent/session/session.ts";
import { userText } from "../../../src/model/messages.ts";
import { sessionPath } from "../../../src/state/state-dir.ts";
import type { NewTaskRecord } from "../../../src/tasks/task-record.ts";
import { WorkspaceTaskStore } from "../../../src/tasks/workspace/workspace-task-store.ts";
import { makeWorkspace, runCli, type TestWorkspace } from "../support/cli-process.ts";

/**
 * `agentry sessions prune` and `agentry tasks prune` as processes, on a workspace whose sessions and
 * records are made by the real session and store code (then dated back): by age and by count, never a
 * running session, one whose next --resume delivers a result, or one kept by choice; the retention
 * setting of the user's config (never a project's) when no flag is given.
 */
const DAY = 86_400_000;
const longAgo = new Date(Date.now() - 40 * DAY);

/** A session dated `at`, with `children` sessions under it. */
async function session(ws: TestWorkspace, id: string, at: Date, parent?: string): Promise<Session> {
  const made = await Session.create({
    workspace: ws.dir,
    agentName: parent === undefined ? "main" : "explore",
    model: "test:model",
    id,
    ...(parent === undefined ? {} : { parentSessionId: parent }),
  });
  await made.append(userText(`hello from ${id}`));
  made.close();
  const path = sessionPath(ws.dir, id);
  const text = await readFile(path, "utf8");
  await writeFile(path, text.replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d+Z/g, at.toISOString()));
  return made;
}

function record(id: string, parentSessionId: string, extra: Partial<NewTaskRecord> = {}): NewTaskRecord {
  return {
    taskId: id,
    agentType: "explore",
    parentAgentId: "main",
    parentSessionId,
    childSessionId: "",
    description: `task ${id}`,
    owner: "elsewhere:1",
    background: false,
    status: "COMPLETED",
    ...extra,
  };
}

async function json(ws: TestWorkspace, args: string[], env: Record<string, string> = {}) {
  const result = await runCli([...args, "--json"], { cwd: ws.dir, env: { ...ws.env, ...env } });
  expect(result.stderr).toBe("");
  expect(result.code).toBe(0);
  return JSON.parse(result.stdout) as {
    pruned: Array<{ id: string; sessions: string[] } | string>;
    protected?: Array<{ id: string; reason: string }>;
  };
}

describe("agentry sessions prune", () => {
  it("by age: a whole tree goes; running, resumable and kept sessions stay, with the reason", async () => {
    const ws = await makeWorkspace();
    const old = new WorkspaceTaskStore({ workspace: ws.dir, now: () => longAgo });
    await session(ws, "s-old", longAgo);
    await session(ws, "sub-old-1", longAgo, "s-old");
    await old.create(record("sub-old-1", "s-old", { childSessionId: "sub-old-1" }));
    await session(ws, "s-resumable", longAgo);
    await old.create(record("sub-bg", "s-resumable", { background: true }));
    await session(ws, "s-kept", longAgo);
    // A live process (this one) holds s-running's lock.
    await session(ws, "s-running", longAgo);
    const holder = await Session.resume(ws.dir, "s-running");
    await session(ws, "s-new", new Date());
    const kept = await runCli(["sessions", "keep", "s-kept"], { cwd: ws.dir, env: ws.env });
    expect(kept.code).toBe(0);

    const dry = await json(ws, ["sessions", "prune", "--older-than", "30d", "--dry-run"]);
    const [tree] = dry.pruned as Array<{ id: string; sessions: string[] }>;
    expect(dry.pruned).toHaveLength(1);
    expect([tree?.id, [...(tree?.sessions ?? [])].sort()]).toEqual(["s-old", ["s-old", "sub-old-1"]]);
    expect(existsSync(sessionPath(ws.dir, "s-old"))).toBe(true);

    const done = await json(ws, ["sessions", "prune", "--older-than", "30d"]);
    holder.close();
    expect(done.pruned.map((tree) => (typeof tree === "string" ? tree : tree.id))).toEqual(["s-old"]);
    expect(Object.fromEntries((done.protected ?? []).map(({ id, reason }) => [id, reason]))).toEqual({
      "s-resumable": "resumable",
      "s-kept": "kept",
      "s-running": "running",
    });
    expect(existsSync(sessionPath(ws.dir, "s-old"))).toBe(false);
    expect(existsSync(sessionPath(ws.dir, "sub-old-1"))).toBe(false);
    expect(existsSync(join(ws.dir, ".agentry", "agents", "main", "tasks", "s-old.json"))).toBe(false);
    for (const id of ["s-resumable", "s-kept", "s-running", "s-new"])
      expect(existsSync(sessionPath(ws.dir, id)), id).toBe(true);
    expect(await new WorkspaceTaskStore({ workspace: ws.dir }).get("sub-bg")).toBeDefined();
  });

  it("by count, from the retention of the user's config; a project's retention is not applied", async () => {
    const ws = await makeWorkspace({
      ".agentry/config.json": JSON.stringify({ retention: { maxSessions: 1 } }),
    });
    for (const [i, id] of ["s-1", "s-2", "s-3"].entries())
      await session(ws, id, new Date(Date.now() - (3 - i) * DAY));
    const refused = await runCli(["sessions", "prune"], { cwd: ws.dir, env: ws.env });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("say what to prune");

    await ws.userConfig({ retention: { maxSessions: 2 } });
    const done = await json(ws, ["sessions", "prune"]);
    expect(done.pruned.map((tree) => (typeof tree === "string" ? tree : tree.id))).toEqual(["s-1"]);
    expect(existsSync(sessionPath(ws.dir, "s-2"))).toBe(true);
  });

  it("refuses an age it cannot read", async () => {
    const ws = await makeWorkspace();
    const result = await runCli(["sessions", "prune", "--older-than", "thirty days"], {
      cwd: ws.dir,
      env: ws.env,
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("give an age such as 30d");
  });
});

describe("agentry tasks prune", () => {
  it("removes old finished records of no session here; never a running one or a session's own", async () => {
    const ws = await makeWorkspace();
    const old = new WorkspaceTaskStore({ workspace: ws.dir, now: () => longAgo });
    const served = (id: string, extra: Partial<NewTaskRecord> = {}) =>
      record(id, `a2a-ctx-${id}`, { parentAgentId: "a2a-client", background: true, ...extra });
    await old.create(served("t-done"));
    await old.create(served("t-failed", { status: "FAILED", error: "it failed" }));
    // Owned by this (live) process: it runs.
    const { currentOwner } = await import("../../../src/tasks/owner.ts");
    await old.create(served("t-running", { status: "RUNNING", owner: currentOwner() }));
    await session(ws, "s-here", longAgo);
    await old.create(record("sub-of-here", "s-here"));
    // A workflow run's background child whose result nobody heard yet.
    await old.create(record("sub-unheard", "wf-run-1", { parentAgentId: "workflow", background: true }));

    const done = await json(ws, ["tasks", "prune", "--older-than", "30d"]);
    expect([...(done.pruned as string[])].sort()).toEqual(["t-done", "t-failed"]);
    const store = new WorkspaceTaskStore({ workspace: ws.dir });
    expect((await store.list()).map((r) => r.taskId).sort()).toEqual([
      "sub-of-here",
      "sub-unheard",
      "t-running",
    ]);
    expect(existsSync(join(ws.dir, ".agentry", "agents", "a2a-client", "tasks", "a2a-ctx-t-done.json"))).toBe(
      false,
    );
  });
});
