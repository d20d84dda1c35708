import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { snapshotRemote, snapshotWorkspace } from "../../src/queue/parent/git-snapshot.ts";
import { remoteWorktree } from "../../src/queue/worker/remote-worktree.ts";
import { tempDir } from "../support/temp-dir.ts";

// Issue 21: the fleet's own git calls — the parent's snapshot, the worker's worktree — in workspaces
// commands have written, and with what a job names.

const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", ["-c", "user.email=t@e.st", "-c", "user.name=t", ...args], {
    cwd,
    encoding: "utf8",
  }).trim();

async function machines() {
  const root = await tempDir("agentry-snapshot-hostile-");
  const remote = join(root, "remote.git");
  const checkout = join(root, "checkout");
  git(root, "init", "-q", "--bare", remote);
  git(root, "init", "-q", checkout);
  await writeFile(join(checkout, "a.txt"), "committed\n");
  git(checkout, "add", ".");
  git(checkout, "commit", "-q", "-m", "init");
  git(checkout, "remote", "add", "origin", remote);
  return { root, remote, checkout, worker: await tempDir("agentry-snapshot-worker-") };
}

describe("the fleet's git in hostile workspaces", () => {
  it("the snapshot's git add runs no filter a .gitattributes names, from the repository's config or any other", async () => {
    const { root, remote, checkout } = await machines();
    const marker = join(root, "filter-ran");
    git(checkout, "config", "filter.x.clean", `touch ${marker}; cat`);
    await writeFile(join(checkout, ".gitattributes"), "* filter=x\n");
    await writeFile(join(checkout, "b.txt"), "raw bytes\n");
    const job = await snapshotWorkspace(checkout, "sub-1", "origin");
    expect(existsSync(marker)).toBe(false);
    expect(git(remote, "show", `${job.snapshotRef}:b.txt`)).toBe("raw bytes");
  });

  it("a checkout whose .git got a commondir is refused before any git runs there", async () => {
    const { root, checkout } = await machines();
    const marker = join(root, "fsmonitor-ran");
    const ev = join(checkout, ".git", "ev");
    await mkdir(ev);
    git(root, "init", "-q", "--bare", ev);
    await writeFile(join(ev, "config"), `[core]\n\tfsmonitor = "touch ${marker}; false"\n`, { flag: "a" });
    await writeFile(join(checkout, ".git", "commondir"), "ev\n");
    await expect(snapshotWorkspace(checkout, "sub-2", "origin")).rejects.toThrow(
      `agentry ran no git in ${checkout}: ${join(checkout, ".git", "commondir")} sends git to ${ev}`,
    );
    expect(existsSync(marker)).toBe(false);
  });

  it("a remote whose URL the workers would refuse is refused when the child is queued", async () => {
    const { checkout } = await machines();
    git(checkout, "remote", "add", "helper", "ext::sh -c touch% /tmp/x");
    await expect(snapshotRemote(checkout, "helper")).rejects.toThrow(
      'The git remote "ext::sh -c touch% /tmp/x" is refused: it names a remote helper',
    );
    await expect(snapshotRemote(checkout, "--upload-pack=touch /tmp/x")).rejects.toThrow("has no remote");
  });

  it("a worker does not follow a symlink of the snapshot out of its worktree to the job's folder", async () => {
    const { root, checkout, worker } = await machines();
    const outside = join(root, "outside");
    await mkdir(outside);
    await symlink(outside, join(checkout, "sub"));
    git(checkout, "add", "sub");
    git(checkout, "commit", "-qm", "a link");
    const job = await snapshotWorkspace(checkout, "sub-3", "origin");
    await expect(remoteWorktree({ ...job, inner: "sub" }, worker, "job-1")).rejects.toThrow(
      "The job's folder sub is not a folder of the worktree (sub is a symlink).",
    );
    await expect(remoteWorktree({ ...job, inner: "sub/deeper" }, worker, "job-2")).rejects.toThrow(
      "(sub is a symlink)",
    );
    expect(existsSync(join(outside, "deeper"))).toBe(false);
  });
});
