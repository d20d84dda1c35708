import type { Outcome } from "../../contracts/outcome.ts";

/** What the parent learns about one finished child run. */
export interface ChildRunReport {
  taskId: string;
  agentType: string;
  /** `provider:model` the child ran on. */
  model: string;
  outcome: Outcome;
  /** The child's turn limit, to explain a `max_turns` ending. */
  maxTurns: number;
  /** A worktree child's branch (kept only when the child changed something). */
  branch?: string;
  /** A line about the child's workspace the parent should know (e.g. where its files are). */
  workspaceNote?: string;
}
