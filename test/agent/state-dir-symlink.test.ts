import { mkdir, mkdtemp, readdir, realpath, rm, symlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Session } from "../../src/agent/session/session.ts";
import { truncateToolOutput } from "../../src/agent/tool-calls/truncate.ts";
import { StateDirError } from "../../src/state/state-dir.ts";
import { WorkspaceTaskStore } from "../../src/tasks/workspace/workspace-task-store.ts";
import { nodeOperations } from "../../src/tools/node-operations.ts";

let base: string;
let workspace: string;
let outside: string;
beforeEach(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), "agentry-state-link-")));
  workspace = join(base, "repo");
  outside = join(base, "outside");
  await mkdir(workspace);
  await mkdir(outside);
});
afterEach(() => rm(base, { recursive: true, force: true, maxRetries: 3 }));

const createSession = () => Session.create({ workspace, agentName: "main", model: "scripted:model" });

describe("a .agentry symlink that leads outside the workspace", () => {
  it("is refused with a message naming the link, and nothing is written outside", async () => {
    // What a cloned repository can bring: a committed link, relative, to somewhere of the attacker's choosing.
    await symlink("../outside", join(workspace, ".agentry"));
    const error = await createSession().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(StateDirError);
    expect((error as Error).message).toMatch(
      /\.agentry is a symbolic link to \.\.\/outside .*outside the workspace.*Remove the link/,
    );
    expect(await readdir(outside)).toEqual([]);
  });

  it("is refused below .agentry too (sessions, task records, tool output)", async () => {
    await mkdir(join(workspace, ".agentry", "agents", "main"), { recursive: true });
    await symlink(outside, join(workspace, ".agentry", "sessions"));
    await symlink(outside, join(workspace, ".agentry", "agents", "main", "tasks"));
    await symlink(outside, join(workspace, ".agentry", "tool-output"));
    await expect(createSession()).rejects.toThrow(/\.agentry\/sessions is a symbolic link/);
    const store = new WorkspaceTaskStore({ workspace });
    await expect(
      store.create({
        taskId: "sub-1",
        agentType: "explore",
        parentAgentId: "main",
        parentSessionId: "s-1",
        childSessionId: "sub-1",
        description: "look",
        owner: "host:1",
        background: false,
      }),
    ).rejects.toThrow(/\.agentry\/agents\/main\/tasks is a symbolic link/);
    const spilled = await truncateToolOutput({
      text: "x\n".repeat(1000),
      limit: 100,
      workspace,
      ops: nodeOperations,
      sessionId: "s-1",
      toolCallId: "call-1",
    });
    expect(spilled.spillPath).toBeUndefined();
    expect(spilled.text).toContain("could not be saved");
    expect(await readdir(outside)).toEqual([]);
  });

  it("does not follow a dangling .agentry/.gitignore link", async () => {
    await mkdir(join(workspace, ".agentry"));
    await symlink(join(outside, "planted"), join(workspace, ".agentry", ".gitignore"));
    await createSession();
    const spilled = await truncateToolOutput({
      text: "x\n".repeat(1000),
      limit: 100,
      workspace,
      ops: nodeOperations,
      sessionId: "s-1",
      toolCallId: "call-1",
    });
    expect(spilled.spillPath).toBeDefined();
    expect(await readdir(outside)).toEqual([]);
  });

  it("a link that stays inside the workspace keeps working", async () => {
    await mkdir(join(workspace, "state"));
    await symlink("state", join(workspace, ".agentry"));
    await createSession();
    expect(await readdir(join(workspace, "state", "sessions"))).toHaveLength(1);
  });
});
