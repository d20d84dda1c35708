import type { TaskActivity } from "../tasks/task-record.ts";
import { ACTIVITY_MAX_TOOLS } from "../tasks/task-record.ts";
import type { ActiveTool, AgentNode } from "./agent-tree-state.ts";

/**
 * The live part of a node as a TaskRecord carries it (`activity`): what the owner's events said —
 * turns, tokens and cost so far, the tools running, waiting for model capacity — so a process that
 * reads only records (the web view) draws the node as the owner's terminal does.
 */
export function nodeActivity(node: AgentNode): TaskActivity {
  const activity: TaskActivity = {
    turns: node.turns,
    tokensIn: node.tokensIn,
    tokensOut: node.tokensOut,
    // The newest tools: the one a UI shows is the last.
    tools: node.tools.slice(-ACTIVITY_MAX_TOOLS).map(({ name, arg }) => ({ name, arg })),
  };
  if (node.cost !== undefined) activity.cost = node.cost;
  if (node.lastTool !== undefined) activity.lastTool = { name: node.lastTool.name, arg: node.lastTool.arg };
  if (node.waiting !== undefined)
    activity.waiting = { reason: node.waiting.reason, limit: node.waiting.limit };
  if (node.compacting !== undefined) activity.compacting = node.compacting.tokens;
  return activity;
}

/** `node` with what `activity` says (`at`, ms: when it was written, the start of a wait it reports). */
export function withActivity(node: AgentNode, activity: TaskActivity, at: number): AgentNode {
  const tool = (t: { name: string; arg: string }, index: number): ActiveTool => ({
    toolCallId: `${node.key}#${index}`,
    name: t.name,
    arg: t.arg,
  });
  const next: AgentNode = {
    ...node,
    turns: activity.turns,
    tokensIn: activity.tokensIn,
    tokensOut: activity.tokensOut,
    tools: activity.tools.map(tool),
  };
  if (activity.cost !== undefined) next.cost = activity.cost;
  if (activity.lastTool !== undefined) next.lastTool = tool(activity.lastTool, -1);
  if (activity.waiting !== undefined) next.waiting = { ...activity.waiting, since: at };
  if (activity.compacting !== undefined) next.compacting = { tokens: activity.compacting, since: at };
  return next;
}
