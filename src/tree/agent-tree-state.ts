import type { AgentEvent, EventOf } from "../contracts/events.ts";
import type { Outcome } from "../contracts/outcome.ts";
import type { CapacityWaitReason } from "../model/capacity.ts";
import type { Usage } from "../model/messages.ts";
import { summarizeArgs } from "../text/summarize-args.ts";

export type AgentStatus = "queued" | "running" | "completed" | "failed" | "aborted";

export interface ActiveTool {
  toolCallId: string;
  name: string;
  /** A short form of its arguments: `src/a.ts`, `npm test`. */
  arg: string;
  /** Its last status note (an MCP server's progress: `2/5 (40%)`); bash's output is not one. */
  progress?: string;
}

/** One agent of the tree, as a UI shows it. */
export interface AgentNode {
  /** e.g. ["main", "explore-1"] */
  path: string[];
  /** `path.join("/")`, the node's identity. */
  key: string;
  agentType: string;
  /** `provider:model`; unknown while queued. */
  model?: string;
  description?: string;
  status: AgentStatus;
  /** Tools running now, oldest first; the UI shows the newest. */
  tools: ActiveTool[];
  /** The last tool it started, shown while it waits for the model. */
  lastTool?: ActiveTool;
  turns: number;
  /** Input tokens, cache reads and writes included. */
  tokensIn: number;
  tokensOut: number;
  /** Whether this turn's usage was counted already (from its assistant message, before its tools ran). */
  turnCounted?: boolean;
  /** US dollars, when the model's price is known. */
  cost?: number;
  queuedAt?: number;
  startedAt?: number;
  endedAt?: number;
  /** Why it failed or was aborted, one line. */
  error?: string;
  /** Its model call waits for its endpoint's capacity: why, and the limit of calls in flight then. */
  waiting?: { reason: CapacityWaitReason; limit: number; since: number };
  /** Its conversation is being compacted (a summary call runs): how big it was. */
  compacting?: { tokens: number; since: number };
  // Known only from a TaskRecord (`recordsTree`: the web view); the events of a run leave them unset.
  /** Its task's id. */
  taskId?: string;
  /** Its transcript's session id (a run's root: the root session's). */
  sessionId?: string;
  /** Where it runs when not in its owner's process (`runsAt`), else its owner process. */
  runsAt?: RunsAt;
  /** A cancel was asked of it, not carried out yet. */
  cancelRequested?: boolean;
  /** Messages sent to it that its owner has not delivered yet. */
  unread?: number;
  /** Not an agent of its own record: a run's root or a workflow's phase, drawn from its children's. */
  inferred?: boolean;
}

/** Where a task runs: its owner's process, a queue's worker, or a remote A2A agent. */
export type RunsAt =
  | { kind: "local"; owner: string }
  | { kind: "worker"; queue: string; jobId: string }
  | { kind: "remote"; url: string };

interface PendingTask {
  /** The caller's node key. */
  parent: string;
  toolCallId: string;
  description?: string;
  agentType?: string;
  /** The child it started, once known. */
  child?: string;
}

/** Every agent seen in a run, in order of first appearance (a parent before its children). */
export interface AgentTreeState {
  readonly nodes: readonly AgentNode[];
  /** `task` calls whose child is not linked to its node yet, or whose end is still to come. */
  readonly tasks: readonly PendingTask[];
  /** The limit of model calls in flight, as the latest wait or grant reported it. */
  readonly modelLimit?: number;
}

export const emptyAgentTree: AgentTreeState = Object.freeze({ nodes: [], tasks: [] });

/**
 * The path of the child a `task` progress update says is queued: the runtime announces a child that
 * waits for a slot as `queued main/explore-9: …`.
 */
export function queuedChildPath(update: string): string[] | undefined {
  return /^queued (\S+):/.exec(update)?.[1]?.split("/");
}

/**
 * Folds one event into the tree. Pure: `now` (ms) stamps starts and ends, and an event that does not
 * change the tree returns the same state, so a UI can skip redrawing.
 */
export function reduceAgentTree(state: AgentTreeState, event: AgentEvent, now: number): AgentTreeState {
  switch (event.type) {
    case "agent_start":
      return onAgentStart(state, event, now);
    case "turn_start":
      return update(ensure(state, event.agentPath, now), event.agentPath, (node) => ({
        ...node,
        turns: Math.max(node.turns + 1, event.turn),
        turnCounted: false,
      }));
    // Usage counts when the reply arrives, not after its tools ran, so a parent waiting on its
    // children already shows what its call cost; a failed call has only its `turn_end`.
    case "assistant_message":
      return update(ensure(state, event.agentPath, now), event.agentPath, (node) => ({
        ...addUsage(node, event.message.usage),
        turnCounted: true,
      }));
    case "turn_end":
      return update(ensure(state, event.agentPath, now), event.agentPath, (node) =>
        notWaiting(node.turnCounted === true ? { ...node, turnCounted: false } : addUsage(node, event.usage)),
      );
    case "tool_start":
      return onToolStart(ensure(state, event.agentPath, now), event);
    case "tool_progress":
      return onToolProgress(state, event, now);
    case "tool_end":
      return onToolEnd(state, event, now);
    case "agent_end":
      return update(ensure(state, event.agentPath, now), event.agentPath, (node) =>
        finished(node, event.outcome, now),
      );
    case "capacity_wait":
      return update(
        { ...ensure(state, event.agentPath, now), modelLimit: event.limit },
        event.agentPath,
        (node) => ({
          ...node,
          waiting: { reason: event.reason, limit: event.limit, since: node.waiting?.since ?? now },
        }),
      );
    case "capacity_granted":
      return update({ ...state, modelLimit: event.limit }, event.agentPath, notWaiting);
    case "compaction_start":
      return update(ensure(state, event.agentPath, now), event.agentPath, (node) => ({
        ...node,
        compacting: { tokens: event.tokens, since: now },
      }));
    case "compacted":
    case "compaction_failed":
      // The summary call's usage is the agent's too.
      return update(ensure(state, event.agentPath, now), event.agentPath, (node) =>
        addUsage(notCompacting(node), event.usage),
      );
    default:
      return state;
  }
}

function notWaiting(node: AgentNode): AgentNode {
  if (node.waiting === undefined) return node;
  const { waiting: _, ...rest } = node;
  return rest;
}

function notCompacting(node: AgentNode): AgentNode {
  if (node.compacting === undefined) return node;
  const { compacting: _, ...rest } = node;
  return rest;
}

/** Folds a whole sequence, e.g. a recorded `stream-json` run, with one timestamp per event. */
export function buildAgentTree(events: Iterable<{ event: AgentEvent; at: number }>): AgentTreeState {
  let state = emptyAgentTree;
  for (const { event, at } of events) state = reduceAgentTree(state, event, at);
  return state;
}

export function findNode(state: AgentTreeState, path: readonly string[]): AgentNode | undefined {
  const key = path.join("/");
  return state.nodes.find((node) => node.key === key);
}

/** `explore-12` → `explore`: the type of a node known only by its path. */
function typeFromName(name: string): string {
  return name.replace(/-\d+$/, "");
}

function newNode(path: string[], status: AgentStatus): AgentNode {
  return {
    path,
    key: path.join("/"),
    agentType: typeFromName(path.at(-1) ?? "agent"),
    status,
    tools: [],
    turns: 0,
    tokensIn: 0,
    tokensOut: 0,
  };
}

/** Adds the node (and missing ancestors, for a stream joined mid-run) as running. */
function ensure(state: AgentTreeState, path: string[], now: number): AgentTreeState {
  if (findNode(state, path) !== undefined) return state;
  let next = state;
  for (let depth = 1; depth <= path.length; depth++) {
    const prefix = path.slice(0, depth);
    if (findNode(next, prefix) === undefined) {
      next = { ...next, nodes: [...next.nodes, { ...newNode(prefix, "running"), startedAt: now }] };
    }
  }
  return next;
}

function update(
  state: AgentTreeState,
  path: readonly string[],
  change: (node: AgentNode) => AgentNode,
): AgentTreeState {
  const key = path.join("/");
  return { ...state, nodes: state.nodes.map((node) => (node.key === key ? change(node) : node)) };
}

function onAgentStart(state: AgentTreeState, event: EventOf<"agent_start">, now: number): AgentTreeState {
  const key = event.agentPath.join("/");
  const parent = event.agentPath.slice(0, -1).join("/");
  // Link the `task` call that started it: same caller, same description.
  const tasks = state.tasks.map((task) =>
    task.child === undefined &&
    task.parent === parent &&
    event.description !== undefined &&
    task.description === event.description
      ? { ...task, child: key }
      : task,
  );
  const existing = findNode(state, event.agentPath);
  const base = existing ?? newNode(event.agentPath, "running");
  const node: AgentNode = {
    ...base,
    agentType: event.agentType,
    model: event.model,
    status: "running",
    tools: [],
    startedAt: existing?.status === "running" && existing.startedAt !== undefined ? existing.startedAt : now,
  };
  // A continued child (task_id) starts again: its totals carry on, its end is in the future.
  delete node.endedAt;
  delete node.error;
  if (event.description !== undefined) node.description = event.description;
  const withAncestors = ensure({ ...state, tasks }, event.agentPath.slice(0, -1), now);
  return existing === undefined
    ? { ...withAncestors, nodes: [...withAncestors.nodes, node] }
    : update(withAncestors, event.agentPath, () => node);
}

function onToolStart(state: AgentTreeState, event: EventOf<"tool_start">): AgentTreeState {
  const tool: ActiveTool = {
    toolCallId: event.toolCallId,
    name: event.name,
    arg: toolArg(event.name, event.args),
  };
  const next = update(state, event.agentPath, (node) => ({
    ...node,
    tools: [...node.tools, tool],
    lastTool: tool,
  }));
  if (event.name !== "task") return next;
  const args = isRecord(event.args) ? event.args : {};
  const task: PendingTask = { parent: event.agentPath.join("/"), toolCallId: event.toolCallId };
  if (typeof args.description === "string") task.description = args.description;
  if (typeof args.subagent_type === "string") task.agentType = args.subagent_type;
  return { ...next, tasks: [...next.tasks, task] };
}

function onToolProgress(state: AgentTreeState, event: EventOf<"tool_progress">, now: number): AgentTreeState {
  if (event.name !== "task") {
    if (event.name === "bash") return state;
    return update(state, event.agentPath, (node) => ({
      ...node,
      tools: node.tools.map((tool) =>
        tool.toolCallId === event.toolCallId ? { ...tool, progress: event.update } : tool,
      ),
    }));
  }
  const path = queuedChildPath(event.update);
  if (path === undefined) return state;
  if (findNode(state, path) !== undefined) return state;
  const task = state.tasks.find((t) => t.toolCallId === event.toolCallId);
  const node: AgentNode = { ...newNode(path, "queued"), queuedAt: now };
  if (task?.agentType !== undefined) node.agentType = task.agentType;
  if (task?.description !== undefined) node.description = task.description;
  const withAncestors = ensure(state, path.slice(0, -1), now);
  return {
    nodes: [...withAncestors.nodes, node],
    tasks: withAncestors.tasks.map((t) =>
      t.toolCallId === event.toolCallId ? { ...t, child: node.key } : t,
    ),
  };
}

function onToolEnd(state: AgentTreeState, event: EventOf<"tool_end">, now: number): AgentTreeState {
  let next = update(state, event.agentPath, (node) => ({
    ...node,
    tools: node.tools.filter((tool) => tool.toolCallId !== event.toolCallId),
  }));
  const task = next.tasks.find((t) => t.toolCallId === event.toolCallId);
  if (task === undefined) return next;
  next = { ...next, tasks: next.tasks.filter((t) => t !== task) };
  // A child that never reported its own end (refused while queued, aborted before it began).
  const child = task.child === undefined ? undefined : next.nodes.find((n) => n.key === task.child);
  if (child === undefined || (child.status !== "queued" && child.status !== "running")) return next;
  return update(next, child.path, (node) => ({
    ...node,
    status: event.isError ? "failed" : "completed",
    tools: [],
    endedAt: now,
    ...(event.isError ? { error: firstLine(event.preview) } : {}),
  }));
}

/** The argument that says what a call does: a search's pattern (and where), else the usual summary. */
export function toolArg(name: string, args: unknown): string {
  const record = isRecord(args) ? args : {};
  if ((name === "grep" || name === "glob") && typeof record.pattern === "string") {
    return typeof record.path === "string" && record.path !== "."
      ? `${record.pattern} in ${record.path}`
      : record.pattern;
  }
  if (name === "list" && typeof record.path !== "string") return ".";
  return summarizeArgs(args, 60);
}

function finished(node: AgentNode, outcome: Outcome, now: number): AgentNode {
  const next: AgentNode = {
    ...notCompacting(notWaiting(node)),
    tools: [],
    endedAt: now,
    turns: Math.max(node.turns, outcome.turns),
  };
  switch (outcome.status) {
    case "completed":
      return { ...next, status: "completed" };
    case "aborted":
      return { ...next, status: "aborted", error: firstLine(outcome.reason) };
    case "error":
      return { ...next, status: "failed", error: firstLine(outcome.error) };
    case "max_turns":
      return { ...next, status: "failed", error: `reached its turn limit (${outcome.turns} turns)` };
    case "budget_exceeded":
      return { ...next, status: "failed", error: firstLine(outcome.reason) };
  }
}

function addUsage(node: AgentNode, usage: Usage): AgentNode {
  const next = {
    ...node,
    tokensIn: node.tokensIn + usage.input + usage.cacheRead + usage.cacheWrite,
    tokensOut: node.tokensOut + usage.output,
  };
  if (usage.cost !== undefined) next.cost = (node.cost ?? 0) + usage.cost;
  return next;
}

function firstLine(text: string): string {
  return (text.split("\n").find((line) => line.trim() !== "") ?? "").trim();
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
