import { execFileSync } from "node:child_process";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { snapshotWorkspace } from "../../src/queue/parent/git-snapshot.ts";
import { remoteWorktree } from "../../src/queue/worker/remote-worktree.ts";
import { tempDir } from "../support/temp-dir.ts";

const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", ["-c", "user.email=t@e.st", "-c", "user.name=t", ...args], {
    cwd,
    encoding: "utf8",
  }).trim();

/** A checkout with a committed file, a bare remote, and a worker's own folder. */
async function machines() {
  const root = await tempDir("agentry-snapshot-");
  const remote = join(root, "remote.git");
  const checkout = join(root, "checkout");
  git(root, "init", "-q", "--bare", remote);
  git(root, "init", "-q", checkout);
  await writeFile(join(checkout, "a.txt"), "committed\n");
  await writeFile(join(checkout, ".gitignore"), "ignored.txt\n");
  git(checkout, "add", ".");
  git(checkout, "commit", "-q", "-m", "init");
  git(checkout, "remote", "add", "origin", remote);
  return { remote, checkout, worker: await tempDir("agentry-snapshot-worker-") };
}

describe("a worktree child across machines: snapshot, worktree on the worker, branch back", () => {
  it("the snapshot holds uncommitted and untracked changes, not ignored files or .agentry; the checkout is untouched", async () => {
    const { remote, checkout } = await machines();
    await writeFile(join(checkout, "a.txt"), "changed, not committed\n");
    await writeFile(join(checkout, "new.txt"), "untracked\n");
    await writeFile(join(checkout, "ignored.txt"), "ignored\n");
    git(checkout, "add", "new.txt"); // staged in the user's index: the snapshot must not change that
    execFileSync("mkdir", ["-p", join(checkout, ".agentry")]);
    await writeFile(join(checkout, ".agentry", "state.json"), "{}\n");
    const statusBefore = git(checkout, "status", "--porcelain");

    const job = await snapshotWorkspace(checkout, "sub-1", "origin");

    expect(job).toMatchObject({ mode: "worktree", remote, branch: "agentry/sub-1", inner: "" });
    expect(git(remote, "show", `${job.snapshotRef}:a.txt`)).toBe("changed, not committed");
    expect(git(remote, "show", `${job.snapshotRef}:new.txt`)).toBe("untracked");
    expect(git(remote, "ls-tree", "--name-only", job.snapshotRef)).not.toMatch(/ignored\.txt|\.agentry/);
    expect(git(checkout, "status", "--porcelain")).toBe(statusBefore);
    expect(git(checkout, "log", "--oneline").split("\n")).toHaveLength(1);
  });

  it("a child that changes nothing pushes nothing (read-only); one that does pushes its branch, and its continuation starts there", async () => {
    const { remote, checkout, worker } = await machines();
    const job = await snapshotWorkspace(checkout, "sub-2", "origin");

    const reader = await remoteWorktree(job, worker, "job-1");
    expect(await readFile(join(reader.path, "a.txt"), "utf8")).toBe("committed\n");
    expect(await reader.finish()).toEqual({ note: "It changed no files, so nothing was pushed." });
    expect(git(remote, "branch", "--list")).toBe("");

    const writer = await remoteWorktree(job, worker, "job-2");
    await writeFile(join(writer.path, "b.txt"), "from the child\n");
    const report = await writer.finish();
    expect(report.branch).toBe("agentry/sub-2");
    expect(git(remote, "show", "agentry/sub-2:b.txt")).toBe("from the child");

    const next = await remoteWorktree(job, worker, "job-3");
    expect(await readFile(join(next.path, "b.txt"), "utf8")).toBe("from the child\n");
    await next.finish();
  });

  it("a checkout without the remote is refused, saying what to add", async () => {
    const { checkout } = await machines();
    git(checkout, "remote", "remove", "origin");
    await expect(snapshotWorkspace(checkout, "sub-3", "origin")).rejects.toThrow(
      'has no remote "origin": add one (git remote add origin <url>)',
    );
  });
});
