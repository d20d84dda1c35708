import { sessionLockHeld } from "../../../agent/session/session-lock.ts";
import type { SessionSummary } from "../../../agent/session/transcript.ts";
import { SERVED_CLIENT } from "../../../remote/serve/served-records.ts";
import { ownerLiveness } from "../../../tasks/owner.ts";
import type { TaskRecord } from "../../../tasks/task-record.ts";
import { isFinished } from "../../../tasks/task-status.ts";
import { type PruneRules, pruned } from "./sessions-retention.ts";

/** A session you started with everything under it: its subagents' sessions and the task records of all. */
export interface SessionTree {
  root: SessionSummary;
  sessions: SessionSummary[];
  /** The records whose parent session is one of `sessions`. */
  records: TaskRecord[];
  /** The last activity of any session or record of the tree. */
  activeAt: number;
}

/** Why a tree the rules would take stays. */
export type Protection =
  | "running"
  /** Work that its next `--resume` still delivers: a background result never delivered, a remote child. */
  | "resumable"
  /** Marked with `agentry sessions keep`. */
  | "kept";

export interface PrunePlan {
  prune: SessionTree[];
  protected: Array<{ tree: SessionTree; reason: Protection }>;
}

/**
 * Groups sessions into trees: each session under the root its `parentSessionId` chain leads to (a
 * session whose parent is not here is a root of its own), with the records of every session in it.
 */
export function sessionTrees(
  sessions: readonly SessionSummary[],
  records: readonly TaskRecord[],
): SessionTree[] {
  const byId = new Map(sessions.map((session) => [session.id, session]));
  const rootOf = (session: SessionSummary): SessionSummary => {
    const seen = new Set<string>();
    let current = session;
    while (current.parentSessionId !== undefined && !seen.has(current.id)) {
      seen.add(current.id);
      const parent = byId.get(current.parentSessionId);
      if (parent === undefined) break;
      current = parent;
    }
    return current;
  };
  const trees = new Map<string, SessionTree>();
  const treeOf = new Map<string, SessionTree>();
  for (const session of sessions) {
    const root = rootOf(session);
    let tree = trees.get(root.id);
    if (tree === undefined) {
      tree = { root, sessions: [], records: [], activeAt: 0 };
      trees.set(root.id, tree);
    }
    tree.sessions.push(session);
    tree.activeAt = Math.max(tree.activeAt, Date.parse(session.updatedAt));
    treeOf.set(session.id, tree);
  }
  for (const record of records) {
    const tree = treeOf.get(record.parentSessionId);
    if (tree === undefined) continue;
    tree.records.push(record);
    tree.activeAt = Math.max(tree.activeAt, Date.parse(record.updatedAt));
  }
  return [...trees.values()].sort((a, b) => b.activeAt - a.activeAt || b.root.id.localeCompare(a.root.id));
}

/**
 * What the rules remove, newest tree first ranked: the trees they take, except those running, holding
 * work a resume would still deliver, or kept by choice.
 */
export function planPrune(
  trees: readonly SessionTree[],
  rules: PruneRules,
  options: { now: number; kept: ReadonlySet<string>; lockPath: (id: string) => string },
): PrunePlan {
  const plan: PrunePlan = { prune: [], protected: [] };
  trees.forEach((tree, rank) => {
    if (!pruned(rules, tree.activeAt, rank, options.now)) return;
    const reason = protection(tree, options);
    if (reason === undefined) plan.prune.push(tree);
    else plan.protected.push({ tree, reason });
  });
  return plan;
}

function protection(
  tree: SessionTree,
  options: { kept: ReadonlySet<string>; lockPath: (id: string) => string },
): Protection | undefined {
  if (tree.sessions.some((session) => options.kept.has(session.id))) return "kept";
  if (tree.sessions.some((session) => sessionLockHeld(options.lockPath(session.id)))) return "running";
  if (tree.records.some((record) => !isFinished(record.status) && ownerLiveness(record.owner) !== "dead"))
    return "running";
  if (tree.records.some(resumable)) return "resumable";
  return undefined;
}

/**
 * A record whose outcome its parent has not heard yet and would on `--resume`: a background child's
 * result never delivered, or a remote (A2A) child that outlived the process that started it.
 */
export function resumable(record: TaskRecord): boolean {
  // An A2A client of agentry serve reads its tasks' ends with GetTask: nothing waits to be delivered.
  if (record.deliveredAt !== undefined || record.parentAgentId === SERVED_CLIENT) return false;
  if (record.ref?.kind === "a2a") return true;
  return record.background && isFinished(record.status) && record.reason !== "orphaned";
}

export const PROTECTION_WORDS: Record<Protection, string> = {
  running: "running: a process works on it",
  resumable: "resumable: its next --resume delivers a subagent's result it has not heard yet",
  kept: "kept: agentry sessions keep",
};
