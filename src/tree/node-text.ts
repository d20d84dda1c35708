import type { AgentNode } from "./agent-tree-state.ts";
import type { TreeTotals } from "./agent-tree-totals.ts";

// What a node and a tree's totals say in words, shared by every UI that draws the tree (the
// terminal's live tree and the web view), so both say the same thing the same way.

/** What an agent is doing, in a few words: its newest tool, why it waits, or how it ended. */
export function activityText(node: AgentNode): string {
  switch (node.status) {
    case "queued":
      return node.description === undefined ? "queued" : `queued: ${node.description}`;
    case "running": {
      const tool = node.tools.at(-1);
      if (tool === undefined && node.compacting !== undefined)
        return `compacting the conversation (${formatTokens(node.compacting.tokens)} tokens)`;
      if (tool === undefined && node.waiting !== undefined) return waitingText(node.waiting);
      if (tool === undefined) {
        const last = node.lastTool;
        return last === undefined ? "thinking" : `thinking (after ${`${last.name} ${last.arg}`.trim()})`;
      }
      const more = node.tools.length > 1 ? ` +${node.tools.length - 1}` : "";
      const progress = tool.progress === undefined ? "" : ` (${tool.progress})`;
      return `${tool.name} ${tool.arg}`.trim() + progress + more;
    }
    case "completed":
      return "done";
    case "failed":
      return node.error === undefined ? "failed" : `failed: ${node.error}`;
    case "aborted":
      return node.error === undefined ? "aborted" : `aborted: ${node.error}`;
  }
}

/** Why a model call waits, short enough for the activity column. */
function waitingText(waiting: NonNullable<AgentNode["waiting"]>): string {
  switch (waiting.reason) {
    case "limit":
      return `waiting for model capacity (${waiting.limit} in flight)`;
    case "retry_after":
      return "waiting: the provider asked to retry later";
    case "rate_limit":
      return "waiting: the provider's rate limit";
  }
}

/** `3 agents (2 running, 1 done) · 6.3k tokens in / 812 out · $0.0123` */
export function totalsText(totals: TreeTotals): string {
  const counts = [
    totals.running > 0 ? `${totals.running} running` : "",
    totals.queued > 0 ? `${totals.queued} queued` : "",
    totals.completed > 0 ? `${totals.completed} done` : "",
    totals.failed > 0 ? `${totals.failed} failed` : "",
    totals.aborted > 0 ? `${totals.aborted} aborted` : "",
  ].filter((part) => part !== "");
  const agents = `${totals.agents} agent${totals.agents === 1 ? "" : "s"}`;
  const parts = [
    counts.length > 0 ? `${agents} (${counts.join(", ")})` : agents,
    `${formatTokens(totals.tokensIn)} tokens in / ${formatTokens(totals.tokensOut)} out`,
  ];
  if (totals.cost !== undefined) parts.push(formatCost(totals.cost));
  if (totals.waitingForModel > 0)
    parts.push(`${totals.waitingForModel} waiting for model capacity (limit ${totals.modelLimit ?? "?"})`);
  return parts.join(" · ");
}

/** 950 → `950`, 2_100 → `2.1k`, 12_345 → `12k`, 3_400_000 → `3.4M`. */
export function formatTokens(count: number): string {
  if (count < 1000) return String(Math.round(count));
  if (count < 10_000) return `${(count / 1000).toFixed(1)}k`;
  if (count < 1_000_000) return `${Math.round(count / 1000)}k`;
  return `${(count / 1_000_000).toFixed(1)}M`;
}

export function formatCost(dollars: number): string {
  return dollars >= 1 ? `$${dollars.toFixed(2)}` : `$${dollars.toFixed(4)}`;
}

/** Elapsed time of a node: to its end, or to `now` while it runs or waits. */
export function elapsedMs(node: AgentNode, now: number): number {
  const from = node.status === "queued" ? node.queuedAt : node.startedAt;
  if (from === undefined) return 0;
  return Math.max(0, (node.endedAt ?? now) - from);
}
