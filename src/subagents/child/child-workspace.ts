import { existsSync } from "node:fs";
import { mkdir, realpath } from "node:fs/promises";
import { isAbsolute, join, relative, resolve } from "node:path";
import type { WorkspaceMode } from "../../agents/definition.ts";
import { AgentryError } from "../../errors/agentry-error.ts";
import { findGitLayout, type GitLayout, gitLayoutProblem, sameGitLayout } from "../../sandbox/git-layout.ts";
import { ensureStateDir, stateDir } from "../../state/state-dir.ts";
import type { LoopChildSpec } from "./child-spec.ts";
import { git, gitSucceeds } from "./git.ts";

/** Where one child works, and what to do with that place after each of its runs. */
export interface ChildWorkspace {
  mode: WorkspaceMode;
  /** Absolute real path the child's tools are confined to. */
  path: string;
  /** Before a continuation: makes the place exist again (a worktree is re-attached to its branch). */
  reopen(): Promise<void>;
  /** After a run: what the parent should be told (a worktree's branch, or that it was removed). */
  finish(): Promise<WorkspaceReport>;
}

export interface WorkspaceReport {
  /** Set when the child's work was kept on a branch. */
  branch?: string;
  note?: string;
}

export interface ChildWorkspaceOptions {
  mode: WorkspaceMode;
  /** The caller's workspace (absolute). */
  parentWorkspace: string;
  agentName: string;
  taskId: string;
  /** `isolated`: the folder to use instead of `.agentry/agents/<name>/workspace/`. */
  path?: string;
}

export class ChildWorkspaceError extends AgentryError {
  override readonly name = "ChildWorkspaceError";
  readonly kind = "system";
}

/** Where a loop child's workspace is made, from its spec. */
export function workspaceOptions(spec: LoopChildSpec): ChildWorkspaceOptions {
  return {
    mode: spec.workspace.mode,
    parentWorkspace: spec.workspace.parent,
    agentName: spec.agent.name,
    taskId: spec.taskId,
    ...(spec.workspace.path === undefined ? {} : { path: spec.workspace.path }),
  };
}

/**
 * `shared` works in the caller's workspace; `isolated` in `.agentry/agents/<name>/workspace/` (or the
 * definition's `path`); `worktree` in a new git worktree on branch `agentry/<name>-<taskId>`.
 */
export async function prepareChildWorkspace(options: ChildWorkspaceOptions): Promise<ChildWorkspace> {
  switch (options.mode) {
    case "shared":
      return fixed("shared", options.parentWorkspace);
    case "isolated":
      return fixed("isolated", await isolatedDir(options));
    case "worktree":
      return await worktreeWorkspace(options);
  }
}

function fixed(mode: WorkspaceMode, path: string): ChildWorkspace {
  return {
    mode,
    path,
    reopen: async () => {
      await mkdir(path, { recursive: true });
    },
    finish: async () => ({}),
  };
}

async function isolatedDir(options: ChildWorkspaceOptions): Promise<string> {
  const { parentWorkspace, agentName } = options;
  let dir: string;
  if (options.path === undefined) {
    dir = join(stateDir(parentWorkspace), "agents", agentName, "workspace");
    ensureStateDir(parentWorkspace, dir);
  } else {
    dir = isAbsolute(options.path) ? options.path : resolve(parentWorkspace, options.path);
    await mkdir(dir, { recursive: true });
  }
  return realpath(dir);
}

async function worktreeWorkspace(options: ChildWorkspaceOptions): Promise<ChildWorkspace> {
  const { parentWorkspace, agentName, taskId } = options;
  const parent = await findGitLayout(await realpath(parentWorkspace));
  if (parent === undefined) {
    throw new ChildWorkspaceError(
      `Agent "${agentName}" needs a git worktree, but ${parentWorkspace} is not inside a git repository. ` +
        "Run it in a git checkout, or give the agent `workspace: { mode: shared }` or `isolated`.",
    );
  }
  await trustedLayout(parentWorkspace, parent);
  const top = parent.top;
  if (
    !(await gitSucceeds(parentWorkspace, ["rev-parse", "--verify", "--quiet", "--end-of-options", "HEAD"]))
  ) {
    throw new ChildWorkspaceError(
      `Agent "${agentName}" needs a git worktree, but the repository at ${top} has no commits yet: commit once first.`,
    );
  }
  const branch = `agentry/${agentName}-${taskId}`;
  const root = join(stateDir(parentWorkspace), "worktrees");
  const dir = join(root, taskId);
  // The child works in the same sub-folder of its checkout as the caller does in the main one.
  const inner = relative(top, await realpath(parentWorkspace));
  let base = "";
  /** Whether this activation created the branch: only then may an activation with no work delete it. */
  let created = false;
  /** The worktree's layout as agentry made it: git is run there only while it is still the same. */
  let own: GitLayout | undefined;

  const attach = async () => {
    await trustedLayout(parentWorkspace, parent);
    if (existsSync(dir)) {
      own ??= await worktreeOf(dir, parent);
      return;
    }
    ensureStateDir(parentWorkspace, root);
    // A run killed mid-task may have left its worktree registered after the folder went away.
    await git(parentWorkspace, ["worktree", "prune"]);
    const branchExists = await gitSucceeds(parentWorkspace, [
      "rev-parse",
      "--verify",
      "--quiet",
      "--end-of-options",
      `refs/heads/${branch}`,
    ]);
    await git(
      parentWorkspace,
      branchExists
        ? ["worktree", "add", "--", dir, branch]
        : ["worktree", "add", "-b", branch, "--", dir, "HEAD"],
    );
    created = !branchExists;
    own = await worktreeOf(dir, parent);
    base = await git(dir, ["rev-parse", "--verify", "--end-of-options", "HEAD"]);
  };
  try {
    await attach();
  } catch (error) {
    throw new ChildWorkspaceError(
      `Could not create a git worktree for agent "${agentName}": ${String((error as Error).message)}`,
    );
  }
  const path = await realpath(join(dir, inner));
  if (!isAtOrUnder(path, await realpath(dir)))
    throw new ChildWorkspaceError(
      `Could not create a git worktree for agent "${agentName}": ${inner} leads out of the worktree (a symlink at HEAD).`,
    );

  return {
    mode: "worktree",
    path,
    reopen: attach,
    async finish() {
      // Before any git runs there: a child may have redirected the worktree (or the repository) elsewhere.
      await trustedLayout(dir, own);
      await trustedLayout(parentWorkspace, parent);
      const changed =
        (await git(dir, ["status", "--porcelain", "--untracked-files=all", "--", ...WORK_PATHS])) !== "";
      const head = await git(dir, ["rev-parse", "--verify", "--end-of-options", "HEAD"]);
      if (changed) await commitAll(dir, `agentry: ${agentName} (${taskId})`);
      await git(parentWorkspace, ["worktree", "remove", "--force", "--", dir]);
      // A branch an earlier activation created holds its work: only a branch made for nothing goes.
      if (!changed && head === base && created) {
        await git(parentWorkspace, ["branch", "-D", "--", branch]);
        return { note: "It changed no files, so its worktree and branch were removed." };
      }
      return {
        branch,
        note:
          `Its changes are committed on branch ${branch}, not in your checkout: ` +
          `review them with \`git diff HEAD...${branch}\` and merge with \`git merge ${branch}\`.`,
      };
    },
  };
}

/** The child's work: everything but agentry's own state folders (transcripts, spilled tool output). */
const WORK_PATHS = [".", ":(exclude,glob)**/.agentry/**"];

/** Commits everything; the harness's own commit skips user hooks and signing, and needs no configured identity. */
async function commitAll(dir: string, message: string): Promise<void> {
  await git(dir, ["add", "-A", "--", ...WORK_PATHS]);
  const identity = (await gitSucceeds(dir, ["config", "user.email"]))
    ? {}
    : { "user.name": "agentry", "user.email": "agentry@localhost" };
  await git(dir, ["commit", "--no-verify", "-q", "-m", message], {
    config: { ...identity, "commit.gpgsign": "false" },
  });
}

/**
 * The git layout of `dir`, refused (`GitLayoutError`) unless it is git's own and, when given,
 * `expected`: agentry runs no git in a checkout a command redirected elsewhere.
 */
export async function trustedLayout(dir: string, expected?: GitLayout): Promise<GitLayout> {
  const layout = await findGitLayout(await realpath(dir).catch(() => dir));
  const problem =
    layout === undefined
      ? `${dir} is no longer in a git repository`
      : (gitLayoutProblem(layout) ??
        (expected === undefined || sameGitLayout(layout, expected)
          ? undefined
          : `git there now uses ${layout.gitDir} (repository ${layout.commonDir}), not ${expected.gitDir} (repository ${expected.commonDir}) as when agentry made it`));
  if (problem === undefined && layout !== undefined) return layout;
  throw new GitLayoutError(
    `agentry ran no git in ${dir}: ${problem}. Something changed the repository's git folders; ` +
      "the files are left as they are: look at them before you run git there yourself.",
  );
}

/** The layout of `dir`, a worktree of the repository `parent` is a checkout of. */
async function worktreeOf(dir: string, parent: GitLayout): Promise<GitLayout> {
  const layout = await trustedLayout(dir);
  if (layout.linked && layout.commonDir === parent.commonDir) return layout;
  throw new GitLayoutError(
    `agentry ran no git in ${dir}: it is not a worktree of the repository ${parent.commonDir}.`,
  );
}

export class GitLayoutError extends AgentryError {
  override readonly name = "GitLayoutError";
  readonly kind = "system";
}

function isAtOrUnder(path: string, root: string): boolean {
  return path === root || path.startsWith(`${root}/`);
}
