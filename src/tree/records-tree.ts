import type { TaskRecord, TaskStatus } from "../tasks/task-record.ts";
import type { AgentNode, AgentStatus, AgentTreeState, RunsAt } from "./agent-tree-state.ts";
import { withActivity } from "./node-activity.ts";

const STATUS: Record<TaskStatus, AgentStatus> = {
  PENDING: "queued",
  RUNNING: "running",
  COMPLETED: "completed",
  FAILED: "failed",
  CANCELLED: "aborted",
};

/** How far a chain of parents is followed: records name their parent, and a loop must not hang. */
const MAX_DEPTH = 64;

/**
 * The tree of every run the records tell of, as the events of those runs would have drawn it: one
 * root per run (the session that started its first children, keyed by that session's id, so two runs'
 * `main/explore-1` never meet), each task under its root at its `agentPath`, and the nodes no record
 * stands for (the root, a workflow's phases) inferred from their children. Runs come newest first, a
 * parent before its children, siblings in the order they started. Pure.
 */
export function recordsTree(records: readonly TaskRecord[]): AgentTreeState {
  const bySession = new Map(records.map((record) => [record.childSessionId, record]));
  const placed = new Map<string, { record: TaskRecord; path: string[] }>();
  const paths = new Map<TaskRecord, string[]>();
  const pathOf = (record: TaskRecord, depth = 0): string[] => {
    const known = paths.get(record);
    if (known !== undefined) return known;
    const parent = bySession.get(record.parentSessionId);
    const root =
      parent === undefined || parent === record || depth >= MAX_DEPTH
        ? [record.parentSessionId]
        : pathOf(parent, depth + 1).slice(0, 1);
    const path =
      record.agentPath !== undefined && record.agentPath.length >= 2
        ? [...root, ...record.agentPath.slice(1)]
        : [...(parent === undefined || depth >= MAX_DEPTH ? root : pathOf(parent, depth + 1)), record.taskId];
    paths.set(record, path);
    return path;
  };
  const byAge = [...records].sort(
    (a, b) => a.createdAt.localeCompare(b.createdAt) || a.taskId.localeCompare(b.taskId),
  );
  for (const record of byAge) {
    let path = pathOf(record);
    // Two records at one path (a run continued in a later process named a child again): both shown.
    if (placed.has(path.join("/"))) path = [...path.slice(0, -1), `${path.at(-1)}#${record.taskId}`];
    placed.set(path.join("/"), { record, path });
  }
  const nodes = new Map<string, AgentNode>();
  for (const { record, path } of placed.values()) nodes.set(path.join("/"), recordNode(record, path));
  inferAncestors(nodes, placed.values());
  return { nodes: ordered([...nodes.values()]), tasks: [] };
}

/** A task's node: its record's status, model and usage, and what its owner says it does now. */
function recordNode(record: TaskRecord, path: string[]): AgentNode {
  const status = STATUS[record.status];
  const created = Date.parse(record.createdAt);
  const updated = Date.parse(record.updatedAt);
  let node: AgentNode = {
    path,
    key: path.join("/"),
    agentType: record.agentType,
    description: record.description,
    status,
    tools: [],
    turns: 0,
    tokensIn: 0,
    tokensOut: 0,
    taskId: record.taskId,
    sessionId: record.childSessionId,
    runsAt: runsAt(record),
    ...(record.model === undefined ? {} : { model: record.model }),
    ...(status === "queued" ? { queuedAt: created } : { startedAt: created }),
  };
  if (record.activity !== undefined) node = withActivity(node, record.activity, updated);
  const finished = status !== "queued" && status !== "running";
  if (finished) {
    // A finished task runs nothing and waits for nothing; its usage is the final word on its tokens.
    const { waiting: _w, compacting: _c, ...rest } = node;
    node = { ...rest, tools: [], endedAt: updated };
    const usage = record.usage;
    if (usage !== undefined && usage.input + usage.output + usage.cacheRead + usage.cacheWrite > 0) {
      node.tokensIn = usage.input + usage.cacheRead + usage.cacheWrite;
      node.tokensOut = usage.output;
      if (usage.cost !== undefined) node.cost = usage.cost;
    }
    const why = firstLine(record.error ?? "") || record.reason;
    if (why !== undefined && why !== "" && status !== "completed") node.error = why;
  } else if (record.cancelRequested) node.cancelRequested = true;
  if (record.inbox !== undefined && record.inbox.length > 0) node.unread = record.inbox.length;
  return node;
}

function runsAt(record: TaskRecord): RunsAt {
  const { ref } = record;
  if (ref?.kind === "queue") return { kind: "worker", queue: ref.queue, jobId: ref.jobId };
  if (ref?.kind === "a2a") return { kind: "remote", url: ref.url };
  return { kind: "local", owner: record.owner };
}

/**
 * Adds the nodes above the tasks that no record stands for — a run's root, a workflow's phases —
 * running while a task under them is active, from the first start below them to the last end.
 */
function inferAncestors(
  nodes: Map<string, AgentNode>,
  placed: Iterable<{ record: TaskRecord; path: string[] }>,
): void {
  const below = new Map<string, { path: string[]; nodes: AgentNode[] }>();
  const rootTypes = new Map<string, string>();
  for (const { record, path } of placed) {
    const node = nodes.get(path.join("/"));
    if (node === undefined) continue;
    if (path.length === 2) rootTypes.set(path[0] ?? "", record.parentAgentId);
    for (let depth = 1; depth < path.length; depth++) {
      const prefix = path.slice(0, depth);
      const key = prefix.join("/");
      if (nodes.has(key)) continue;
      const group = below.get(key) ?? { path: prefix, nodes: [] };
      group.nodes.push(node);
      below.set(key, group);
    }
  }
  // Shallow first, so a phase knows whether its parent is a workflow.
  for (const [key, group] of [...below].sort(([, a], [, b]) => a.path.length - b.path.length)) {
    const active = group.nodes.some((node) => node.status === "running" || node.status === "queued");
    const started = Math.min(
      ...group.nodes.map((node) => node.queuedAt ?? node.startedAt ?? Number.POSITIVE_INFINITY),
    );
    const ended = Math.max(...group.nodes.map((node) => node.endedAt ?? 0));
    const root = group.path.length === 1;
    const parent = nodes.get(group.path.slice(0, -1).join("/"));
    nodes.set(key, {
      path: group.path,
      key,
      agentType: root
        ? (rootTypes.get(key) ?? "main")
        : parent?.agentType === "workflow"
          ? "phase"
          : (group.path.at(-1) ?? ""),
      status: active ? "running" : "completed",
      tools: [],
      turns: 0,
      tokensIn: 0,
      tokensOut: 0,
      inferred: true,
      ...(Number.isFinite(started) ? { startedAt: started } : {}),
      ...(active || ended === 0 ? {} : { endedAt: ended }),
      // A run's root is its session: its transcript is the run's.
      ...(root ? { sessionId: key } : {}),
    });
  }
}

/** Runs newest first; inside a run, depth first, siblings by their start. */
function ordered(nodes: AgentNode[]): AgentNode[] {
  const children = new Map<string, AgentNode[]>();
  const roots: AgentNode[] = [];
  for (const node of nodes) {
    if (node.path.length === 1) roots.push(node);
    else {
      const parent = node.path.slice(0, -1).join("/");
      children.set(parent, [...(children.get(parent) ?? []), node]);
    }
  }
  const start = (node: AgentNode) => node.queuedAt ?? node.startedAt ?? 0;
  const latest = (root: AgentNode): number =>
    Math.max(start(root), ...(children.get(root.key) ?? []).map(latest));
  const out: AgentNode[] = [];
  const visit = (node: AgentNode) => {
    out.push(node);
    for (const child of (children.get(node.key) ?? []).sort((a, b) => start(a) - start(b))) visit(child);
  };
  for (const root of roots.sort((a, b) => latest(b) - latest(a))) visit(root);
  return out;
}

function firstLine(text: string): string {
  return (text.split("\n").find((line) => line.trim() !== "") ?? "").trim();
}
