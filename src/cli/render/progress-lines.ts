import type { AgentEvent } from "../../contracts/events.ts";
import { formatDuration } from "../../text/format-duration.ts";
import { oneLine } from "../../text/summarize-args.ts";
import { type AgentTreeState, findNode, queuedChildPath } from "../../tree/agent-tree-state.ts";
import { treeTotals } from "../../tree/agent-tree-totals.ts";
import { elapsedMs, formatTokens, shortModel, totalsText } from "./agent-tree-view.ts";

/**
 * The line a subagent's start, queueing or end deserves when the output is not a terminal (a log, CI),
 * read from the tree after `event` was folded in; undefined for every other event and for the root:
 *
 *   [main/explore-1] started explore (claude-haiku-4-5): map the source layout
 *   [main/explore-1] completed in 4.2s, 3 turns, 2.1k tokens
 *   [main/explore-2] failed after 1.0s, 2 turns, 300 tokens: the model call failed
 */
export function progressLine(event: AgentEvent, after: AgentTreeState): string | undefined {
  if (event.type === "tool_progress" && event.name === "task") {
    const path = queuedChildPath(event.update);
    const node = path === undefined ? undefined : findNode(after, path);
    if (node === undefined || node.status !== "queued") return undefined;
    const what = node.description === undefined ? "" : `: ${oneLine(node.description, 100)}`;
    return `[${node.key}] queued ${node.agentType}${what} (${event.update.slice(event.update.indexOf(":") + 2)})`;
  }
  if (event.agentPath.length < 2) return undefined;
  const node = findNode(after, event.agentPath);
  if (node === undefined) return undefined;
  if (event.type === "agent_start") {
    const model = node.model === undefined || node.model === "" ? "" : ` (${shortModel(node.model)})`;
    const what = node.description === undefined ? "" : `: ${oneLine(node.description, 100)}`;
    return `[${node.key}] started ${node.agentType}${model}${what}`;
  }
  if (event.type !== "agent_end") return undefined;
  const took = formatDuration(elapsedMs(node, node.endedAt ?? 0));
  const metrics = `${node.turns} turn${node.turns === 1 ? "" : "s"}, ${formatTokens(node.tokensIn + node.tokensOut)} tokens`;
  switch (node.status) {
    case "completed":
      return `[${node.key}] completed in ${took}, ${metrics}`;
    case "failed":
    case "aborted":
      return `[${node.key}] ${node.status} after ${took}, ${metrics}${node.error === undefined ? "" : `: ${oneLine(node.error, 160)}`}`;
    default:
      return undefined;
  }
}

/** The closing line when a run had subagents: the totals of the whole tree, undefined otherwise. */
export function progressSummary(state: AgentTreeState): string | undefined {
  const totals = treeTotals(state);
  return totals.children === 0 ? undefined : `[total] ${totalsText(totals)}`;
}
