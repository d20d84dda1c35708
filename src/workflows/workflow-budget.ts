import type { TreeBudget } from "../agent/limits/tree-budget.ts";

/** A whole workflow's budget: its agents' tokens, cost and time together, and how many it may start. */
export interface WorkflowBudget extends TreeBudget {
  /** Agent calls that run a child (replayed ones are free); the call past it stops the run. */
  maxAgents?: number;
}

/** The run started as many agents as its budget allows. */
export class AgentCapReached extends Error {
  override readonly name = "AgentCapReached";
}
