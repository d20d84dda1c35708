import { formatDuration } from "../../../text/format-duration.ts";
import { oneLine } from "../../../text/summarize-args.ts";
import { formatCost, formatTokens } from "../../render/agent-tree-view.ts";
import type { RunResult } from "../../render/result-object.ts";
import type { Style } from "../../render/style.ts";

/**
 * The line printed after each interactive turn: how it ended (when it did not complete), the root's
 * turns, the tokens and cost of the whole tree (children included) and the time taken, e.g.
 * `aborted · 1 turn · 2.1k tokens in / 85 out · $0.0071 · 4.2s`.
 */
export function turnSummary(result: RunResult, style: Style): string {
  const usage = result.treeUsage;
  const parts = [
    `${result.turns} turn${result.turns === 1 ? "" : "s"}`,
    `${formatTokens(usage.input + usage.cacheRead + usage.cacheWrite)} tokens in / ${formatTokens(usage.output)} out`,
  ];
  if (result.agentRuns > 1) parts.push(`${result.agentRuns} agent runs`);
  if (result.costUsd !== undefined) parts.push(formatCost(result.costUsd));
  parts.push(formatDuration(result.durationMs));
  const status = outcomeText(result);
  const summary = style.dim(parts.join(" · "));
  if (status === undefined) return summary;
  const colour = result.outcome === "error" ? style.red : style.yellow;
  return `${colour(status)}${style.dim(" · ")}${summary}`;
}

function outcomeText(result: RunResult): string | undefined {
  switch (result.outcome) {
    case "completed":
      return undefined;
    case "aborted":
      return "aborted";
    case "max_turns":
      return "stopped at the turn limit (say “go on” to continue)";
    case "budget_exceeded":
      return `stopped: ${oneLine(result.reason ?? "budget exceeded", 160)}`;
    case "error":
      return `error: ${oneLine(result.error ?? "unknown error", 300)}`;
  }
}
