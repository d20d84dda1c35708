import type { Redis } from "ioredis";
import type { AgentConfig } from "../agent/config.ts";
import { RunLimitExceeded } from "../agent/limits/run-limits.ts";
import { Session } from "../agent/session/session.ts";
import type { AgentDefinition } from "../agents/definition.ts";
import type { AgentEvent } from "../contracts/events.ts";
import type { Outcome } from "../contracts/outcome.ts";
import { emptyUsage, type UserMessage } from "../model/messages.ts";
import type { Model } from "../model/model.ts";
import { createPermissionGate, type PermissionMode } from "../permissions/gate.ts";
import type { Ruleset } from "../permissions/types.ts";
import type { CommandPolicy } from "../sandbox/policy.ts";
import { childSystemPrompt } from "../subagents/child-config.ts";
import { isSpawnTool } from "../subagents/child-tools.ts";
import type { ChildWorkspace } from "../subagents/child-workspace.ts";
import { inProcessExecutor } from "../subagents/in-process-executor.ts";
import type { LocalChild } from "../subagents/local-child.ts";
import { nodeOperations } from "../tools/node-operations.ts";
import type { AnyTool } from "../tools/tool.ts";
import type { FleetKey } from "./fleet-key.ts";
import { jobKeys } from "./fleet-keys.ts";
import { JOB_VERSION, type JobData, type JobResult } from "./job-data.ts";
import { workerWorkspace } from "./job-workspace.ts";
import { closeMailbox, type MailboxEntry, parseEntry, readEntries } from "./mailbox.ts";
import { remoteWorktree } from "./remote-worktree.ts";
import type { StreamMessage } from "./stream-message.ts";

/** What a worker runs children with: its own models, tools and sandbox — never the parent's keys. */
export interface WorkerRuntime {
  /** Builds a model from the job's `provider:model` id with this machine's keys and config. */
  createModel(id: string): Model;
  /** This worker's tools: a child gets those its job names, never more (and never the spawn tools). */
  tools(): AnyTool[];
  /** How the child's commands run here: this machine's OS sandbox, derived from the child's rules. */
  commands(input: ChildCommandsInput): Promise<CommandPolicy | undefined>;
  /** Hides this machine's secrets in tool output. */
  redact?: (text: string) => string;
  /**
   * Whether a job may run in `bypass` mode. Whoever can write to the fleet's Redis writes the jobs, so
   * by default a worker does not take a job's word for it: `bypass` runs as `accept-edits` and no
   * command leaves the OS sandbox (`jobPermissions`). `agentry worker --allow-bypass` turns this off.
   */
  allowBypass?: boolean;
}

export interface ChildCommandsInput {
  workspace: string;
  rules: Ruleset;
  mode: PermissionMode;
  /** The parent's commands were confined read-only: the child's must be too. */
  readOnly: boolean;
  allowedHosts?: readonly string[];
}

/** What one job may use of its worker's connections. */
export interface JobConnections {
  commands: Redis;
  /** Calls `handler` at each message on `channel` until the returned function is called. */
  subscribe(channel: string, handler: () => void): Promise<() => void>;
  queue: string;
  prefix: string;
  /** `host:pid`, for the result and the logs. */
  worker: string;
  /** How often the parent's lease is checked (it is gone: the child is stopped). */
  leaseCheckMs: number;
  /** This worker's own folder: worktree children's repositories and worktrees. */
  cacheDir: string;
  /** The fleet's key: mailbox entries not signed with it for this job are skipped. */
  key?: FleetKey;
}

/**
 * Runs one activation of a queued child with the same loop as in the parent's process
 * (`inProcessExecutor`), in the job's workspace: what the parent sends arrives through the job's
 * mailbox, the child's events go out on its channel, and the result brings back what the activation
 * added to the conversation. A job this worker cannot run (its workspace is not here, its model is
 * unknown) ends with an error outcome that says why.
 */
export async function runQueuedChild(
  data: JobData,
  jobId: string,
  runtime: WorkerRuntime,
  connections: JobConnections,
): Promise<JobResult> {
  const { commands } = connections;
  const keys = jobKeys(connections.queue, jobId, connections.prefix);
  const publish = (message: StreamMessage) =>
    commands.publish(keys.events, JSON.stringify(message)).catch(() => 0);
  const started = Date.now();
  const stop = new AbortController();
  const { key } = connections;
  const signed = (value: unknown) =>
    key === undefined || key.verify("entry", { queue: connections.queue, jobId }, value);
  let local: LocalChild;
  try {
    local = await buildQueuedChild(data, runtime, await queuedWorkspace(data, jobId, connections.cacheDir));
  } catch (error) {
    await publish({ type: "end" });
    return result(connections, errorOutcome(error, data.sessionId, started), [], []);
  }
  const historyLength = local.session.messages.length;
  const activation = inProcessExecutor(local, () => {}).start({
    messages: data.messages,
    signal: stop.signal,
    emit: (event: AgentEvent) => void publish({ type: "event", event }),
  });

  let cursor = 0;
  const unread: UserMessage[] = [];
  const apply = (entry: MailboxEntry | undefined) => {
    if (entry?.type === "message" && !activation.send(entry.message)) unread.push(entry.message);
    else if (entry?.type === "interrupt") activation.interrupt();
    else if (entry?.type === "cancel" && !stop.signal.aborted) stop.abort(abortReason(entry));
  };
  let reading: Promise<void> = Promise.resolve();
  const read = () => {
    reading = reading.then(async () => {
      const entries = await readEntries(commands, keys, cursor).catch(() => []);
      cursor += entries.length;
      for (const text of entries) apply(parseEntry(text, signed));
    });
  };
  const unsubscribe = await connections.subscribe(keys.control, read);
  read();
  const leaseWatch = setInterval(() => {
    void commands.exists(keys.lease).then(
      (alive) => {
        if (alive === 0 && !stop.signal.aborted)
          stop.abort("its parent stopped following it (its lease expired)");
      },
      () => {},
    );
  }, connections.leaseCheckMs);
  try {
    const { outcome, branch, workspaceNote } = await activation.done;
    await reading;
    const late = await closeMailbox(commands, keys, cursor).catch(() => []);
    for (const text of late) {
      const entry = parseEntry(text, signed);
      if (entry?.type === "message") unread.push(entry.message);
    }
    await publish({ type: "end" });
    return {
      ...result(connections, outcome, local.session.messages.slice(historyLength), unread),
      ...(branch === undefined ? {} : { branch }),
      ...(workspaceNote === undefined ? {} : { workspaceNote }),
    };
  } finally {
    clearInterval(leaseWatch);
    unsubscribe();
  }
}

/**
 * The rules and mode a job's child runs with on this worker: the job's, narrowed unless the worker
 * allows bypass — `bypass` becomes `accept-edits` (edits allowed, commands the sandbox covers allowed,
 * anything else asked, and there is nobody to ask) and leaving the sandbox is denied, last so it wins.
 */
export function jobPermissions(
  data: Pick<JobData, "rules" | "mode">,
  allowBypass: boolean,
): { rules: Ruleset; mode: PermissionMode } {
  if (allowBypass) return { rules: data.rules, mode: data.mode };
  return {
    rules: [...data.rules, { permission: "unsandboxed", pattern: "*", action: "deny" }],
    mode: data.mode === "bypass" ? "accept-edits" : data.mode,
  };
}

/** The child as its job describes it, with this worker's model, tools, gate and sandbox. */
async function buildQueuedChild(
  data: JobData,
  runtime: WorkerRuntime,
  workspace: ChildWorkspace,
): Promise<LocalChild> {
  const { path } = workspace;
  const model = runtime.createModel(data.model);
  const { rules, mode } = jobPermissions(data, runtime.allowBypass === true);
  const gate = createPermissionGate({ rules, mode });
  const wanted = new Set(data.tools);
  const tools = runtime.tools().filter((tool) => wanted.has(tool.name) && !isSpawnTool(tool.name));
  const commandPolicy = await runtime.commands({
    workspace: path,
    rules,
    mode,
    readOnly: data.readOnly,
    ...(data.agent.allowedHosts === undefined ? {} : { allowedHosts: data.agent.allowedHosts }),
  });
  const definition: AgentDefinition = {
    name: data.agent.name,
    description: data.agent.description,
    prompt: data.agent.prompt,
    mode: "subagent",
    // As sent by the parent, which resolved it from wherever it was defined.
    source: { kind: "programmatic", format: "agentry" },
    ...(data.agent.temperature === undefined ? {} : { temperature: data.agent.temperature }),
  };
  const config: AgentConfig = {
    name: data.agent.name,
    model,
    systemPrompt: childSystemPrompt(data.agent, path),
    tools,
    maxTurns: data.limits.maxTurns,
    limits: {
      ...(data.limits.stallTimeoutMs === undefined ? {} : { stallTimeoutMs: data.limits.stallTimeoutMs }),
      ...(data.limits.maxTokens === undefined ? {} : { maxTokens: data.limits.maxTokens }),
      ...(data.limits.maxDurationMs === undefined ? {} : { maxDurationMs: data.limits.maxDurationMs }),
    },
    workspace: path,
    ops: nodeOperations,
    ...(commandPolicy === undefined ? {} : { commands: commandPolicy }),
    agentPath: data.agentPath,
    depth: data.depth,
    ask: gate,
    ...(data.toolOutputLimit === undefined ? {} : { toolOutputLimit: data.toolOutputLimit }),
    ...(runtime.redact === undefined ? {} : { redact: runtime.redact }),
    ...(data.agent.temperature === undefined ? {} : { temperature: data.agent.temperature }),
  };
  // In memory only: the conversation is the parent's, which appends what this activation adds.
  const session = await Session.create({
    workspace: path,
    agentName: data.agent.name,
    model: model.id,
    id: data.sessionId,
    persist: false,
  });
  for (const message of data.history) await session.append(message);
  return { definition, config, rules, mode, session, workspace };
}

/** The job's workspace here: the parent's folder (a shared disk), or a worktree from its snapshot. */
async function queuedWorkspace(data: JobData, jobId: string, cacheDir: string): Promise<ChildWorkspace> {
  const job = data.workspace;
  if (job.mode === "worktree") return remoteWorktree(job, cacheDir, jobId);
  const path = await workerWorkspace(job);
  return { mode: job.mode, path, reopen: async () => {}, finish: async () => ({}) };
}

/** A cancel as the loop must see it: a run limit stays a limit, so a budget ends `budget_exceeded`. */
function abortReason(entry: Extract<MailboxEntry, { type: "cancel" }>): unknown {
  const { reason } = entry;
  return reason.kind === "limit" ? new RunLimitExceeded(reason.limit, reason.message) : reason.text;
}

function result(
  connections: JobConnections,
  outcome: Outcome,
  messages: JobResult["messages"],
  unread: UserMessage[],
): JobResult {
  return { v: JOB_VERSION, outcome, messages, unread, worker: connections.worker };
}

function errorOutcome(error: unknown, sessionId: string, started: number): Outcome {
  return {
    status: "error",
    error: error instanceof Error ? error.message : String(error),
    text: "",
    turns: 0,
    usage: emptyUsage(),
    durationMs: Date.now() - started,
    sessionId,
  };
}
