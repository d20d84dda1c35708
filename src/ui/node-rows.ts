import type { AgentNode, AgentTreeState, RunsAt } from "../tree/agent-tree-state.ts";
import { treeTotals } from "../tree/agent-tree-totals.ts";
import { activityText, formatCost, formatTokens, totalsText } from "../tree/node-text.ts";

/**
 * One node of the tree as the page draws it: the words are the ones the terminal's live tree uses
 * (`src/tree/node-text.ts`), worked out here so the page only places them; times stay numbers, for
 * the page to count up the elapsed time of what still runs.
 */
export interface NodeRow {
  key: string;
  /** The parent's key; absent for a run's root. */
  parent?: string;
  depth: number;
  name: string;
  agentType: string;
  model?: string;
  description?: string;
  status: AgentNode["status"];
  /** What it does now, or how it ended: the terminal's activity column. */
  activity: string;
  turns: number;
  tokens: string;
  cost?: string;
  /** Milliseconds since the epoch. */
  since?: number;
  endedAt?: number;
  runsAt?: string;
  taskId?: string;
  /** Its transcript (a run's root: the run's). */
  sessionId?: string;
  cancelRequested?: boolean;
  unread?: number;
  /** Drawn from its children (a run's root, a workflow's phase), not from a record of its own. */
  inferred?: boolean;
  waiting?: boolean;
  /** A run's root: the totals of its whole tree, as the terminal's last line says them. */
  totals?: string;
}

/** The rows of a tree, in its order (runs newest first, a parent before its children). */
export function nodeRows(tree: AgentTreeState): NodeRow[] {
  const byRun = new Map<string, AgentNode[]>();
  for (const node of tree.nodes) {
    const run = node.path[0] ?? node.key;
    const nodes = byRun.get(run);
    if (nodes === undefined) byRun.set(run, [node]);
    else nodes.push(node);
  }
  return tree.nodes.map((node) => {
    const row = nodeRow(node);
    if (node.path.length === 1)
      row.totals = totalsText(treeTotals({ nodes: byRun.get(node.key) ?? [], tasks: [] }));
    return row;
  });
}

function nodeRow(node: AgentNode): NodeRow {
  const row: NodeRow = {
    key: node.key,
    depth: node.path.length - 1,
    name: node.path.length === 1 ? node.agentType : (node.path.at(-1) ?? node.key),
    agentType: node.agentType,
    status: node.status,
    activity: node.inferred === true ? "" : activityText(node),
    turns: node.turns,
    tokens: formatTokens(node.tokensIn + node.tokensOut),
  };
  if (node.path.length > 1) row.parent = node.path.slice(0, -1).join("/");
  if (node.model !== undefined) row.model = node.model;
  if (node.description !== undefined) row.description = node.description;
  if (node.cost !== undefined) row.cost = formatCost(node.cost);
  const since = node.status === "queued" ? node.queuedAt : node.startedAt;
  if (since !== undefined) row.since = since;
  if (node.endedAt !== undefined) row.endedAt = node.endedAt;
  if (node.runsAt !== undefined) row.runsAt = runsAtText(node.runsAt);
  if (node.taskId !== undefined) row.taskId = node.taskId;
  if (node.sessionId !== undefined) row.sessionId = node.sessionId;
  if (node.cancelRequested === true) row.cancelRequested = true;
  if (node.unread !== undefined) row.unread = node.unread;
  if (node.inferred === true) row.inferred = true;
  if (node.waiting !== undefined && node.status === "running") row.waiting = true;
  return row;
}

/** `local (host:4242)`, `worker (queue agentry, job 12)`, `remote http://…/agents/explore`. */
export function runsAtText(where: RunsAt): string {
  switch (where.kind) {
    case "local":
      return `local (${where.owner.split("/")[0]})`;
    case "worker":
      return `worker (queue ${where.queue}, job ${where.jobId})`;
    case "remote":
      return `remote ${where.url}`;
  }
}
