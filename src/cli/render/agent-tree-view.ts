import { formatDuration } from "../../text/format-duration.ts";
import type { AgentNode, AgentStatus, AgentTreeState } from "../../tree/agent-tree-state.ts";
import { treeTotals } from "../../tree/agent-tree-totals.ts";
import { activityText, elapsedMs, formatTokens, totalsText } from "../../tree/node-text.ts";
import { createStyle, type Style } from "./style.ts";
import { cutToWidth, padEndToWidth, padStartToWidth, textWidth } from "./text-width.ts";

// The node's words live with the tree's state, shared with the web view; the terminal's callers import them from here.
export { elapsedMs, formatCost, formatTokens, totalsText } from "../../tree/node-text.ts";

export interface TreeViewOptions {
  /** Milliseconds since the epoch: elapsed times of running agents count up to it. */
  now: number;
  /** Terminal columns; every line is cut to fit. */
  width: number;
  /** ANSI colour (off for NO_COLOR or when stderr is not a terminal). */
  color?: boolean;
  /** At most this many lines in all (the rest summarised in one line), so the tree fits the screen. */
  maxLines?: number;
}

const MAX_ACTIVITY = 44;

const GLYPHS: Record<AgentStatus, string> = {
  queued: "◌",
  running: "●",
  completed: "✓",
  failed: "✗",
  aborted: "⊘",
};

/** A piece of a line and how to colour it; widths are terminal columns, counted before colouring. */
interface Segment {
  text: string;
  paint?: keyof Style;
}

/**
 * The tree as lines, one per agent, then a totals line:
 *
 *   main          main     claude-sonnet-4-5  ● task map the source layout +1  t1  1.2k tok  4.3s
 *   ├─ explore-1  explore  claude-haiku-4-5   ● read src/a.ts                     t3  2.1k tok  4.2s
 *   └─ explore-2  explore  claude-haiku-4-5   ✓ done                              t4  3.0k tok  3.1s
 *   3 agents (2 running, 1 done) · 6.3k tokens in / 812 out · $0.0123
 *
 * Pure: the same state, time and width always give the same lines.
 */
export function renderAgentTree(state: AgentTreeState, options: TreeViewOptions): string[] {
  const style = createStyle(options.color ?? false);
  // The live tree passes one column less than the terminal (20 at the least), so this floor stays below it.
  const width = Math.max(10, options.width);
  const rows = treeRows(state);
  const name = columnWidth(rows.map((row) => textWidth(row.prefix + row.name)));
  const type = columnWidth(rows.map((row) => textWidth(row.node.agentType)));
  const model = columnWidth(rows.map((row) => textWidth(shortModel(row.node.model))));
  const activities = rows.map((row) => activityText(row.node));
  const stats = rows.map((row) => statsText(row.node, options.now));
  const statsWidth = columnWidth(stats.map(textWidth));
  const leftWidth = name + type + model + 6;
  // The activity column takes what the fixed columns leave, up to a fixed cap so it does not jump
  // between frames, and so the numbers stay visible on a narrow terminal and close on a wide one.
  const activityWidth = Math.max(6, Math.min(MAX_ACTIVITY, width - leftWidth - statsWidth - 4));
  const lines = rows.map((row, index) => {
    const { node } = row;
    const segments: Segment[] = [
      { text: row.prefix, paint: "dim" },
      {
        text: `${padEndToWidth(row.name, name - textWidth(row.prefix))}  ${padEndToWidth(node.agentType, type)}  `,
      },
      { text: `${padEndToWidth(shortModel(node.model), model)}  `, paint: "dim" },
      { text: GLYPHS[node.status], paint: statusPaint(node.status) },
      { text: ` ${padEndToWidth(ellipsize(activities[index] ?? "", activityWidth), activityWidth)}  ` },
      { text: padStartToWidth(stats[index] ?? "", statsWidth), paint: "dim" },
    ];
    return paint(segments, width, style);
  });
  const limit = options.maxLines ?? Number.POSITIVE_INFINITY;
  const body = lines.length + 1 > limit ? lines.slice(0, Math.max(0, limit - 2)) : lines;
  if (body.length < lines.length) {
    body.push(paint([{ text: `… ${lines.length - body.length} more agents`, paint: "dim" }], width, style));
  }
  body.push(paint([{ text: totalsText(treeTotals(state)), paint: "bold" }], width, style));
  return body;
}

/** `anthropic:claude-haiku-4-5` → `claude-haiku-4-5`: the provider is noise in a narrow column. */
export function shortModel(model: string | undefined): string {
  if (model === undefined) return "";
  return cutToWidth(model.slice(model.indexOf(":") + 1), 24);
}

interface Row {
  node: AgentNode;
  prefix: string;
  name: string;
}

/** Depth-first rows with box-drawing prefixes; orphans (no known parent) are drawn as roots. */
function treeRows(state: AgentTreeState): Row[] {
  const keys = new Set(state.nodes.map((node) => node.key));
  const parentKey = (node: AgentNode) => node.path.slice(0, -1).join("/");
  // Children that wait for a slot go after the ones that started, in the order they will start.
  const childrenOf = (key: string | undefined) =>
    state.nodes
      .filter((node) =>
        key === undefined ? !keys.has(parentKey(node)) : node.path.length > 1 && parentKey(node) === key,
      )
      .sort((a, b) => Number(a.status === "queued") - Number(b.status === "queued"));
  const rows: Row[] = [];
  const visit = (node: AgentNode, indent: string, branch: string, root: boolean) => {
    rows.push({ node, prefix: root ? "" : indent + branch, name: node.path.at(-1) ?? node.key });
    const kids = childrenOf(node.key);
    const nextIndent = root ? "" : indent + (branch === "└─ " ? "   " : "│  ");
    kids.forEach((kid, index) => {
      visit(kid, nextIndent, index === kids.length - 1 ? "└─ " : "├─ ", false);
    });
  };
  for (const root of childrenOf(undefined)) visit(root, "", "", true);
  return rows;
}

function statsText(node: AgentNode, now: number): string {
  const elapsed = formatDuration(elapsedMs(node, now));
  if (node.status === "queued") return elapsed;
  return `t${node.turns}  ${formatTokens(node.tokensIn + node.tokensOut)} tok  ${elapsed}`;
}

function statusPaint(status: AgentStatus): keyof Style {
  switch (status) {
    case "queued":
      return "dim";
    case "running":
      return "cyan";
    case "completed":
      return "green";
    case "failed":
      return "red";
    case "aborted":
      return "yellow";
  }
}

function columnWidth(lengths: number[]): number {
  return Math.max(0, ...lengths);
}

/** Cuts `text` (whitespace runs made one space) to `max` columns, ending in `…` when cut. */
function ellipsize(text: string, max: number): string {
  return cutToWidth(text.replace(/\s+/g, " "), max);
}

/** Joins segments, cutting the line at `width` columns before colouring it. */
function paint(segments: Segment[], width: number, style: Style): string {
  let room = width;
  let line = "";
  for (const segment of segments) {
    if (room <= 0) break;
    const text = cutToWidth(segment.text, room);
    room -= textWidth(text);
    line += segment.paint === undefined || text === "" ? text : style[segment.paint](text);
  }
  return line.trimEnd();
}
