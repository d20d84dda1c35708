import { randomBytes } from "node:crypto";
import { realpath, rm } from "node:fs/promises";
import { join, relative, resolve } from "node:path";
import { git, gitSucceeds, trustedLayout } from "../../subagents/placement.ts";
import { checkedRemote } from "../fleet-remote.ts";
import { FleetWorkspaceError } from "../fleet-workspace-error.ts";
import type { JobWorkspace } from "../job-data.ts";

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
 * what to set up. Returns the remote's URL as the workers will use it (one they accept: `remoteProblem`).
 */
export async function snapshotRemote(workspace: string, remote: string): Promise<string> {
  if (!(await gitSucceeds(workspace, ["rev-parse", "--verify", "--quiet", "--end-of-options", "HEAD"])))
    throw new FleetWorkspaceError(
      `A queued worktree child needs its parent's workspace in a git repository with a commit; ${workspace} is not (or has no commit yet).`,
    );
  const named = remote.startsWith("-")
    ? undefined
    : await git(workspace, ["remote", "get-url", "--", remote]).catch(() => undefined);
  const url = named ?? (/^[a-z]+:\/\/|^[^/]+@[^:]+:|^\//.test(remote) ? remote : undefined);
  if (url === undefined)
    throw new FleetWorkspaceError(
      `A queued worktree child goes through a git remote every worker reaches, but the repository at ${workspace} has no remote "${remote}": add one (git remote add ${remote} <url>).`,
    );
  // A local path is made absolute: the workers resolve it from elsewhere.
  const absolute =
    url.startsWith("/") || url.startsWith("-") || /^[A-Za-z0-9+.-]+:/.test(url)
      ? url
      : resolve(workspace, url);
  return checkedRemote(absolute);
}

/**
 * Snapshots the parent's workspace for a worktree child, uncommitted and untracked changes included
 * (not what .gitignore ignores, nor `.agentry/`), as a commit on HEAD made through a private index —
 * the checkout, its index and its branches are untouched — and pushes it to `refs/agentry/snapshots/
 * <task id>` on the remote, where a worker fetches it. The repository must still be laid out as git
 * makes it (`trustedLayout`): agentry runs no git where a command redirected it.
 */
export async function snapshotWorkspace(
  workspace: string,
  taskId: string,
  remote: string,
): Promise<WorktreeJob> {
  const layout = await trustedLayout(workspace);
  const url = await snapshotRemote(workspace, remote);
  const top = layout.top;
  const inner = relative(top, await realpath(workspace));
  const index = join(layout.gitDir, `agentry-snapshot-${randomBytes(4).toString("hex")}.index`);
  let snapshot: string;
  try {
    const env = { GIT_INDEX_FILE: index };
    await git(top, ["read-tree", "HEAD"], { env });
    await git(top, ["add", "-A", "--", ...WORK_PATHS], { env });
    const tree = await git(top, ["write-tree"], { env });
    snapshot = await git(
      top,
      ["commit-tree", "-p", "HEAD", "-m", `agentry: snapshot of the workspace for ${taskId}`, tree],
      { config: AGENTRY_IDENTITY },
    );
  } finally {
    await rm(index, { force: true });
  }
  const snapshotRef = `refs/agentry/snapshots/${taskId}`;
  await git(top, ["push", "--quiet", "--", url, `+${snapshot}:${snapshotRef}`], { transfer: true }).catch(
    (error: Error) => {
      throw new FleetWorkspaceError(
        `Could not push the workspace's snapshot for ${taskId} to ${url}: ${error.message}`,
      );
    },
  );
  return { mode: "worktree", remote: url, snapshot, snapshotRef, branch: childBranch(taskId), inner };
}

/** Who agentry's own commits of a fleet are by (the snapshot, a worker's commit of a child's work). */
export const AGENTRY_IDENTITY = { "user.name": "agentry", "user.email": "agentry@localhost" };
