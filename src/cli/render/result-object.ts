import { EVENT_SCHEMA_VERSION } from "../../contracts/events.ts";
import type { Outcome, OutcomeStatus } from "../../contracts/outcome.ts";
import type { Usage } from "../../model/messages.ts";
import type { TreeUsage } from "./tree-usage.ts";

/**
 * The final object of `--output-format json` (the only line) and `stream-json` (the last line).
 * Documented in docs/stream-json.md; fields are only ever added. Beside ours, it carries the field
 * names of Claude Code's result (`claude -p --output-format json`), so scripts written for it work.
 */
export interface RunResult extends ClaudeCodeResultFields {
  v: typeof EVENT_SCHEMA_VERSION;
  type: "result";
  /** The root agent's path, as on every event line: the result is the root's. */
  agentPath: string[];
  outcome: OutcomeStatus;
  /** The final assistant text. */
  result: string;
  sessionId: string;
  usage: Usage;
  turns: number;
  durationMs: number;
  /** Tokens of the whole tree: the root and every subagent run (continuations included). */
  treeUsage: Usage;
  /** Agent runs in the tree, the root included. */
  agentRuns: number;
  /** US dollars for the whole tree, when a model used has a known price. */
  costUsd?: number;
  /** Set when outcome is "error". */
  error?: string;
  /** Set when outcome is "aborted" or "budget_exceeded". */
  reason?: string;
}

/** Claude Code's names for what `RunResult` also says in its own words. */
export interface ClaudeCodeResultFields {
  /** `success`, or why not: `error_max_turns`, `error_max_budget_usd`, `error_during_execution`. */
  subtype: ClaudeCodeSubtype;
  /** Whether the run did not complete. */
  is_error: boolean;
  session_id: string;
  num_turns: number;
  duration_ms: number;
  /** The whole tree's cost (`costUsd`), when a model used has a known price. */
  total_cost_usd?: number;
}

export type ClaudeCodeSubtype =
  | "success"
  | "error_max_turns"
  | "error_max_budget_usd"
  | "error_during_execution";

/** Claude Code has no "aborted": an interrupted run is, as there, an error during execution. */
const SUBTYPES: Readonly<Record<OutcomeStatus, ClaudeCodeSubtype>> = {
  completed: "success",
  max_turns: "error_max_turns",
  budget_exceeded: "error_max_budget_usd",
  error: "error_during_execution",
  aborted: "error_during_execution",
};

/** The CLI's root agent (`wire-agent.ts`), for a run that ended before its first event. */
const ROOT_AGENT = "main";

export function runResult(outcome: Outcome, tree?: TreeUsage): RunResult {
  const treeUsage = tree && tree.agentRuns > 0 ? tree.usage : outcome.usage;
  const result: RunResult = {
    v: EVENT_SCHEMA_VERSION,
    type: "result",
    agentPath: tree?.rootPath ?? [ROOT_AGENT],
    outcome: outcome.status,
    result: outcome.text,
    sessionId: outcome.sessionId,
    usage: outcome.usage,
    treeUsage,
    agentRuns: tree && tree.agentRuns > 0 ? tree.agentRuns : 1,
    turns: outcome.turns,
    durationMs: outcome.durationMs,
    subtype: SUBTYPES[outcome.status],
    is_error: outcome.status !== "completed",
    session_id: outcome.sessionId,
    num_turns: outcome.turns,
    duration_ms: outcome.durationMs,
  };
  if (treeUsage.cost !== undefined) {
    result.costUsd = treeUsage.cost;
    result.total_cost_usd = treeUsage.cost;
  }
  if (outcome.status === "error") result.error = outcome.error;
  if (outcome.status === "aborted" || outcome.status === "budget_exceeded") result.reason = outcome.reason;
  return result;
}
