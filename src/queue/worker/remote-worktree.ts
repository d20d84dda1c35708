import { createHash, randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { lstat, mkdir, realpath } from "node:fs/promises";
import { join } from "node:path";
import type { GitLayout } from "../../sandbox/git-layout.ts";
import { type ChildWorkspace, git, gitSucceeds, trustedLayout } from "../../subagents/placement.ts";
import { checkedRemote } from "../fleet-remote.ts";
import { FleetWorkspaceError } from "../fleet-workspace-error.ts";
import { AGENTRY_IDENTITY, WORK_PATHS, type WorktreeJob } from "../parent/git-snapshot.ts";

/** One fetch at a time per cached repository (git locks its refs). */
const fetching = new Map<string, Promise<unknown>>();

/**
 * A worktree child's workspace on a worker without the parent's disk: a worktree of a bare cache of
 * the remote (under `cacheDir`), on the child's branch — from the branch when an earlier activation
 * pushed it, else from the parent's snapshot. `finish` commits the child's changes, pushes the branch
 * (nothing is pushed when it changed nothing) and removes the worktree.
 */
export async function remoteWorktree(
  job: WorktreeJob,
  cacheDir: string,
  taskId: string,
): Promise<ChildWorkspace> {
  const repo = join(cacheDir, "repos", createHash("sha256").update(job.remote).digest("hex").slice(0, 16));
  const remoteBranch = `refs/remotes/fleet/${job.branch}`;
  const exclusive = <T>(work: () => Promise<T>): Promise<T> => {
    const run = (fetching.get(repo) ?? Promise.resolve()).then(work, work);
    fetching.set(
      repo,
      run.catch(() => {}),
    );
    return run;
  };
  const remote = checkedRemote(job.remote);
  const start = await exclusive(async () => {
    if (!existsSync(repo)) {
      await mkdir(repo, { recursive: true });
      await git(repo, ["init", "--quiet", "--bare"]);
    }
    try {
      await git(repo, ["fetch", "--quiet", "--", remote, `+${job.snapshotRef}:${job.snapshotRef}`], {
        transfer: true,
      });
    } catch (error) {
      throw new FleetWorkspaceError(
        `This worker cannot fetch the workspace's snapshot from ${job.remote}: ${(error as Error).message}`,
      );
    }
    // A continuation goes on from what the child pushed before.
    const pushed = await gitSucceeds(
      repo,
      ["fetch", "--quiet", "--", remote, `+refs/heads/${job.branch}:${remoteBranch}`],
      { transfer: true },
    );
    return pushed
      ? await git(repo, ["rev-parse", "--verify", "--end-of-options", `${remoteBranch}^{commit}`])
      : job.snapshot;
  });
  // The job's id is Redis data: it names nothing on this disk but through its hash.
  const name = `${createHash("sha256").update(taskId).digest("hex").slice(0, 12)}-${randomBytes(3).toString("hex")}`;
  const dir = join(cacheDir, "worktrees", name);
  await mkdir(join(cacheDir, "worktrees"), { recursive: true });
  await exclusive(() => git(repo, ["worktree", "add", "--quiet", "-B", job.branch, "--", dir, start]));
  const remove = () =>
    exclusive(() => git(repo, ["worktree", "remove", "--force", "--", dir])).catch(() => {});
  let own: GitLayout;
  let path: string;
  try {
    own = await trustedLayout(dir);
    if (own.commonDir !== (await realpath(repo)))
      throw new FleetWorkspaceError(`The worktree ${dir} is not one of this worker's repository ${repo}.`);
    path = await folderInside(await realpath(dir), job.inner);
  } catch (error) {
    await remove();
    throw error;
  }
  return {
    mode: "worktree",
    path,
    reopen: async () => {},
    async finish() {
      try {
        // Before any git runs there: the child may have redirected its worktree elsewhere.
        await trustedLayout(dir, own);
        const changed =
          (await git(dir, ["status", "--porcelain", "--untracked-files=all", "--", ...WORK_PATHS])) !== "";
        if (changed) {
          await git(dir, ["add", "-A", "--", ...WORK_PATHS]);
          await git(dir, ["commit", "--no-verify", "-q", "-m", `agentry: ${job.branch}`], {
            config: { ...AGENTRY_IDENTITY, "commit.gpgsign": "false" },
          });
        }
        const head = await git(dir, ["rev-parse", "--verify", "--end-of-options", "HEAD"]);
        if (head === job.snapshot) return { note: "It changed no files, so nothing was pushed." };
        if (head !== start || changed)
          await git(dir, ["push", "--quiet", "--", remote, `+HEAD:refs/heads/${job.branch}`], {
            transfer: true,
          });
        return {
          branch: job.branch,
          note:
            `Its changes are committed on branch ${job.branch} of ${job.remote}, not in your checkout: ` +
            `fetch it (git fetch ${job.remote} ${job.branch}), review with \`git diff HEAD...FETCH_HEAD\` and merge.`,
        };
      } finally {
        await remove();
      }
    },
  };
}

/**
 * `root/inner`, made where missing: `inner` (job data) is relative and stays inside `root` — no `..`,
 * and no symlink on the way (the snapshot's files are the parent's, or whoever wrote the job).
 */
async function folderInside(root: string, inner: string): Promise<string> {
  let path = root;
  for (const part of inner.split("/").filter((part) => part !== "" && part !== ".")) {
    if (part === "..") throw new FleetWorkspaceError(`The job's folder ${inner} leaves the worktree.`);
    path = join(path, part);
    const info = await lstat(path).catch(() => undefined);
    if (info === undefined) await mkdir(path);
    else if (!info.isDirectory())
      throw new FleetWorkspaceError(
        `The job's folder ${inner} is not a folder of the worktree (${part} is a ${info.isSymbolicLink() ? "symlink" : "file"}).`,
      );
  }
  return path;
}
