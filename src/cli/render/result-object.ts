import { EVENT_SCHEMA_VERSION } from "../../contracts/events.ts";
import type { Outcome, OutcomeStatus } from "../../contracts/outcome.ts";
import type { Usage } from "../../model/messages.ts";
import type { TreeUsage } from "./tree-usage.ts";

/**
 * The final object of `--output-format json` (the only line) and `stream-json` (the last line).
 * Documented in docs/stream-json.md; fields are only ever added.
 */
export interface RunResult {
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
  };
  if (treeUsage.cost !== undefined) result.costUsd = treeUsage.cost;
  if (outcome.status === "error") result.error = outcome.error;
  if (outcome.status === "aborted" || outcome.status === "budget_exceeded") result.reason = outcome.reason;
  return result;
}
