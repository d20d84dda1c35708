import { randomBytes } from "node:crypto";
import { link, readFile, rm, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { ensureStateDir, stateDir } from "../../state/state-dir.ts";
import type { ChildWorkspace } from "../../subagents/placement.ts";
import { FleetWorkspaceError } from "../fleet-workspace-error.ts";
import type { JobWorkspace } from "../job-data.ts";
import { snapshotWorkspace } from "./git-snapshot.ts";

const TOKEN_FILE = "workspace-id";

/** Who the child is and which remote its worktree travels through (a name of the parent's repository, or a URL). */
export interface JobWorkspaceContext {
  taskId: string;
  remote: string;
}

/**
 * Where a queued child works, as its job says it: a shared or isolated folder and the token proving
 * it is the same one; for a worktree child, a snapshot of the parent's workspace pushed to the remote
 * (its `path` is the parent's workspace: the queue placement makes no worktree here).
 */
export async function jobWorkspace(
  workspace: ChildWorkspace,
  context: JobWorkspaceContext,
): Promise<JobWorkspace> {
  if (workspace.mode === "worktree") return snapshotWorkspace(workspace.path, context.taskId, context.remote);
  return { mode: workspace.mode, path: workspace.path, workspaceId: await workspaceToken(workspace.path) };
}

/** The folder's token (`.agentry/workspace-id`), made on first use. */
async function workspaceToken(folder: string): Promise<string> {
  const file = join(stateDir(folder), TOKEN_FILE);
  const existing = await readToken(file);
  if (existing !== undefined) return existing;
  ensureStateDir(folder, stateDir(folder));
  // Written whole under a name of its own, then linked into place: of two parents (or two children of
  // one) making it at once, one link wins and the other fails with EEXIST, and no one ever reads a
  // token half written. Created in place, a second child read the first one's still empty file, and
  // the worker refused its job as being for another folder.
  const draft = join(stateDir(folder), `.${TOKEN_FILE}.${randomBytes(6).toString("hex")}.tmp`);
  try {
    await writeFile(draft, `${randomBytes(12).toString("hex")}\n`, { flag: "wx" });
    await link(draft, file).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== "EEXIST") throw error;
    });
  } finally {
    await rm(draft, { force: true });
  }
  const token = await readToken(file);
  if (token === undefined)
    throw new FleetWorkspaceError(
      `${file} holds no workspace token (it is shorter than 8 characters): delete it, and agentry makes a new one`,
    );
  return token;
}

/** The token in `file`, or undefined when there is none (no file, or too short to be one). */
async function readToken(file: string): Promise<string | undefined> {
  const text = await readFile(file, "utf8").catch(() => undefined);
  const token = text?.trim();
  return token !== undefined && token.length >= 8 ? token : undefined;
}

/**
 * The folder a worker runs the child in: the job's, when this machine sees it with the same token.
 * Anything else refuses the job, naming what to set up (fail closed: never another folder).
 */
export async function workerWorkspace(
  workspace: Exclude<JobWorkspace, { mode: "worktree" }>,
): Promise<string> {
  const isDir = await stat(workspace.path).then(
    (info) => info.isDirectory(),
    () => false,
  );
  const token = isDir
    ? await readFile(join(stateDir(workspace.path), TOKEN_FILE), "utf8").then(
        (text) => text.trim(),
        () => undefined,
      )
    : undefined;
  if (token === workspace.workspaceId) return workspace.path;
  const what = !isDir
    ? "does not exist on this worker"
    : "is not the parent's folder here (its .agentry/workspace-id differs or is missing)";
  throw new FleetWorkspaceError(
    `The child's ${workspace.mode} workspace ${workspace.path} ${what}: a queued ${workspace.mode} child needs its parent's workspace on a shared disk, mounted at the same path on every worker.`,
  );
}
