import { mkdir, readdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { FleetWorkspaceError } from "../../src/queue/fleet-workspace-error.ts";
import { jobWorkspace, workerWorkspace } from "../../src/queue/parent/job-workspace.ts";
import type { ChildWorkspace } from "../../src/subagents/child/child-workspace.ts";
import { tempDir } from "../support/temp-dir.ts";

const shared = (path: string): ChildWorkspace => ({
  mode: "shared",
  path,
  reopen: async () => {},
  finish: async () => ({}),
});

/** The job of a shared child (never a worktree one: `shared` makes none). */
async function sharedJob(folder: string) {
  const job = await jobWorkspace(shared(folder), { taskId: "sub-1", remote: "origin" });
  if (job.mode === "worktree") throw new Error("a shared child's job names a worktree");
  return job;
}

describe("a queued child's workspace across machines", () => {
  it("the worker takes the folder whose token matches, the same one on every call", async () => {
    const folder = await tempDir("agentry-job-ws-");
    const sent = await sharedJob(folder);

    expect(sent).toMatchObject({ mode: "shared", path: folder });
    expect((await sharedJob(folder)).workspaceId).toBe(sent.workspaceId);
    expect(await workerWorkspace(sent)).toBe(folder);
  });

  it("refuses a folder this machine does not have, naming it and the shared disk it needs", async () => {
    const folder = await tempDir("agentry-job-ws-");
    const sent = await sharedJob(folder);
    await rm(folder, { recursive: true });

    const taken = workerWorkspace(sent);
    await expect(taken).rejects.toThrow(FleetWorkspaceError);
    await expect(taken).rejects.toThrow(`${folder} does not exist on this worker`);
    await expect(taken).rejects.toThrow("shared disk");
  });

  it("refuses a namesake: the same path holding another folder (its token differs or is missing)", async () => {
    const folder = await tempDir("agentry-job-ws-");
    const sent = await sharedJob(folder);
    await writeFile(join(folder, ".agentry", "workspace-id"), "someone-elses-token\n");
    await expect(workerWorkspace(sent)).rejects.toThrow("is not the parent's folder here");

    await rm(join(folder, ".agentry"), { recursive: true });
    await mkdir(join(folder, ".agentry"));
    await expect(workerWorkspace(sent)).rejects.toThrow("is not the parent's folder here");
  });

  it("children queued at once on a fresh folder all send its one token, and each job is taken", async () => {
    for (let round = 0; round < 100; round++) {
      const folder = await tempDir("agentry-job-ws-");
      const jobs = await Promise.all(Array.from({ length: 8 }, () => sharedJob(folder)));

      expect(new Set(jobs.map((job) => job.workspaceId)).size, `round ${round}`).toBe(1);
      for (const job of jobs) expect(await workerWorkspace(job), `round ${round}`).toBe(folder);
      // The drafts the tokens were written in are gone.
      expect(await readdir(join(folder, ".agentry"))).toEqual([".gitignore", "workspace-id"]);
    }
  });

  // The token was once made in place: for a moment its file was there but empty, and a second child
  // queued at the same time sent that empty token, so the worker refused its job as another folder's.
  it.each([
    ["empty (a writer caught between creating it and writing it)", ""],
    ["too short to be a token", "short\n"],
  ])("a token file %s is named, with what to do, never sent", async (_, text) => {
    const folder = await tempDir("agentry-job-ws-");
    await mkdir(join(folder, ".agentry"));
    const file = join(folder, ".agentry", "workspace-id");
    await writeFile(file, text);

    const sent = sharedJob(folder);
    await expect(sent).rejects.toThrow(FleetWorkspaceError);
    await expect(sent).rejects.toThrow(`${file} holds no workspace token`);
    await expect(sent).rejects.toThrow("delete it");
  });
});
