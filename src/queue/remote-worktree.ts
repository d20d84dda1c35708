import { createHash, randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, realpath } from "node:fs/promises";
import { join } from "node:path";
import type { ChildWorkspace } from "../subagents/child-workspace.ts";
import { git, gitSucceeds } from "../subagents/git.ts";
import { FleetWorkspaceError } from "./fleet-workspace-error.ts";
import { WORK_PATHS, type WorktreeJob } from "./git-snapshot.ts";

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
  const start = await exclusive(async () => {
    if (!existsSync(repo)) {
      await mkdir(repo, { recursive: true });
      await git(repo, ["init", "--quiet", "--bare"]);
    }
    try {
      await git(repo, ["fetch", "--quiet", job.remote, `+${job.snapshotRef}:${job.snapshotRef}`]);
    } catch (error) {
      throw new FleetWorkspaceError(
        `This worker cannot fetch the workspace's snapshot from ${job.remote}: ${(error as Error).message}`,
      );
    }
    // A continuation goes on from what the child pushed before.
    const pushed = await gitSucceeds(repo, [
      "fetch",
      "--quiet",
      job.remote,
      `+refs/heads/${job.branch}:${remoteBranch}`,
    ]);
    return pushed ? await git(repo, ["rev-parse", remoteBranch]) : job.snapshot;
  });
  const dir = join(cacheDir, "worktrees", `${taskId}-${randomBytes(3).toString("hex")}`);
  await mkdir(join(cacheDir, "worktrees"), { recursive: true });
  await exclusive(() => git(repo, ["worktree", "add", "--quiet", "-B", job.branch, dir, start]));
  const path = join(await realpath(dir), job.inner);
  await mkdir(path, { recursive: true });
  return {
    mode: "worktree",
    path,
    reopen: async () => {},
    async finish() {
      try {
        const changed =
          (await git(dir, ["status", "--porcelain", "--untracked-files=all", "--", ...WORK_PATHS])) !== "";
        if (changed) {
          await git(dir, ["add", "-A", "--", ...WORK_PATHS]);
          await git(dir, [
            "-c",
            "user.name=agentry",
            "-c",
            "user.email=agentry@localhost",
            "-c",
            "commit.gpgsign=false",
            "commit",
            "--no-verify",
            "-q",
            "-m",
            `agentry: ${job.branch}`,
          ]);
        }
        const head = await git(dir, ["rev-parse", "HEAD"]);
        if (head === job.snapshot) return { note: "It changed no files, so nothing was pushed." };
        if (head !== start || changed)
          await git(dir, ["push", "--quiet", job.remote, `+HEAD:refs/heads/${job.branch}`]);
        return {
          branch: job.branch,
          note:
            `Its changes are committed on branch ${job.branch} of ${job.remote}, not in your checkout: ` +
            `fetch it (git fetch ${job.remote} ${job.branch}), review with \`git diff HEAD...FETCH_HEAD\` and merge.`,
        };
      } finally {
        await exclusive(() => git(repo, ["worktree", "remove", "--force", dir])).catch(() => {});
      }
    },
  };
}
