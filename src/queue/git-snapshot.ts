import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { realpath, rm } from "node:fs/promises";
import { isAbsolute, relative, resolve } from "node:path";
import { git, gitSucceeds } from "../subagents/git.ts";
import { FleetWorkspaceError } from "./fleet-workspace-error.ts";
import type { JobWorkspace } from "./job-data.ts";

export type WorktreeJob = Extract<JobWorkspace, { mode: "worktree" }>;

/** The child's work: everything but agentry's own state folders (as a local worktree child commits it). */
export const WORK_PATHS = [".", ":(exclude,glob)**/.agentry/**"];

/** Where a queued worktree child's work goes: its own branch, on the remote. */
export function childBranch(taskId: string): string {
  return `agentry/${taskId}`;
}

/**
 * Checks before a worktree child is queued that its workspace can travel: a git repository with a
 * commit and a remote (`remote`, a name or a URL) — so a child that cannot run fails at once, saying
 * what to set up. Returns the remote's URL as the workers will use it.
 */
export async function snapshotRemote(workspace: string, remote: string): Promise<string> {
  if (!(await gitSucceeds(workspace, ["rev-parse", "--verify", "--quiet", "HEAD"])))
    throw new FleetWorkspaceError(
      `A queued worktree child needs its parent's workspace in a git repository with a commit; ${workspace} is not (or has no commit yet).`,
    );
  const url = await git(workspace, ["remote", "get-url", remote]).catch(() =>
    /^[a-z]+:\/\/|^[^/]+@[^:]+:|^\//.test(remote) ? remote : undefined,
  );
  if (url === undefined)
    throw new FleetWorkspaceError(
      `A queued worktree child goes through a git remote every worker reaches, but the repository at ${workspace} has no remote "${remote}": add one (git remote add ${remote} <url>).`,
    );
  // A local path is made absolute: the workers resolve it from elsewhere.
  return url.startsWith("/") || /^[a-z]+:\/\/|^[^/]+@[^:]+:/.test(url) ? url : resolve(workspace, url);
}

/**
 * Snapshots the parent's workspace for a worktree child, uncommitted and untracked changes included
 * (not what .gitignore ignores, nor `.agentry/`), as a commit on HEAD made through a private index —
 * the checkout, its index and its branches are untouched — and pushes it to `refs/agentry/snapshots/
 * <task id>` on the remote, where a worker fetches it.
 */
export async function snapshotWorkspace(
  workspace: string,
  taskId: string,
  remote: string,
): Promise<WorktreeJob> {
  const url = await snapshotRemote(workspace, remote);
  const top = await realpath(await git(workspace, ["rev-parse", "--show-toplevel"]));
  const inner = relative(top, await realpath(workspace));
  const gitPath = await git(top, [
    "rev-parse",
    "--git-path",
    `agentry-snapshot-${randomBytes(4).toString("hex")}.index`,
  ]);
  const index = isAbsolute(gitPath) ? gitPath : resolve(top, gitPath);
  let snapshot: string;
  try {
    const env = { ...process.env, GIT_INDEX_FILE: index };
    await gitWithEnv(top, ["read-tree", "HEAD"], env);
    await gitWithEnv(top, ["add", "-A", "--", ...WORK_PATHS], env);
    const tree = await gitWithEnv(top, ["write-tree"], env);
    snapshot = await git(top, [
      "-c",
      "user.name=agentry",
      "-c",
      "user.email=agentry@localhost",
      "commit-tree",
      tree,
      "-p",
      "HEAD",
      "-m",
      `agentry: snapshot of the workspace for ${taskId}`,
    ]);
  } finally {
    await rm(index, { force: true });
  }
  const snapshotRef = `refs/agentry/snapshots/${taskId}`;
  await git(top, ["push", "--quiet", url, `+${snapshot}:${snapshotRef}`]).catch((error: Error) => {
    throw new FleetWorkspaceError(
      `Could not push the workspace's snapshot for ${taskId} to ${url}: ${error.message}`,
    );
  });
  return { mode: "worktree", remote: url, snapshot, snapshotRef, branch: childBranch(taskId), inner };
}

function gitWithEnv(cwd: string, args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolvePromise, reject) => {
    execFile(
      "git",
      ["-c", "core.fsmonitor=false", "-c", "core.hooksPath=/dev/null", ...args],
      { cwd, env, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error)
          reject(
            new FleetWorkspaceError(
              `git ${args.join(" ")} failed: ${String(stderr).trim() || error.message}`,
            ),
          );
        else resolvePromise(String(stdout).trim());
      },
    );
  });
}
