import { WORKFLOW_NODE_TYPES } from "../contracts/workflow-events.ts";
import type { AgentTreeState } from "./agent-tree-state.ts";

export interface TreeTotals {
  agents: number;
  /** Agents below the root. */
  children: number;
  queued: number;
  running: number;
  completed: number;
  failed: number;
  aborted: number;
  tokensIn: number;
  tokensOut: number;
  /** Undefined when no agent's cost is known. */
  cost?: number;
  /** Agents whose model call waits for capacity now. */
  waitingForModel: number;
  /** The limit of model calls in flight, when a wait or grant reported it. */
  modelLimit?: number;
}

/** Sums over every agent of the tree, the root included (a workflow's own nodes and its phases are groups, not agents). */
export function treeTotals(state: AgentTreeState): TreeTotals {
  const agents = state.nodes.filter((node) => !WORKFLOW_NODE_TYPES.includes(node.agentType));
  const totals: TreeTotals = {
    agents: agents.length,
    children: agents.filter((node) => node.path.length > 1).length,
    queued: 0,
    running: 0,
    completed: 0,
    failed: 0,
    aborted: 0,
    tokensIn: 0,
    tokensOut: 0,
    waitingForModel: 0,
  };
  if (state.modelLimit !== undefined) totals.modelLimit = state.modelLimit;
  for (const node of agents) {
    totals[node.status]++;
    if (node.waiting !== undefined && node.status === "running") totals.waitingForModel++;
    totals.tokensIn += node.tokensIn;
    totals.tokensOut += node.tokensOut;
    if (node.cost !== undefined) totals.cost = (totals.cost ?? 0) + node.cost;
  }
  return totals;
}

/** Whether any agent below the root is queued or running: the time a live tree is worth drawing. */
export function hasActiveChildren(state: AgentTreeState): boolean {
  return state.nodes.some(
    (node) => node.path.length > 1 && (node.status === "running" || node.status === "queued"),
  );
}
