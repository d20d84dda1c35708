import type { Redis } from "ioredis";
import { RunLimitExceeded } from "../agent/run-limits.ts";
import { Session } from "../agent/session.ts";
import type { AgentEvent } from "../contracts/events.ts";
import type { Outcome } from "../contracts/outcome.ts";
import type { UserMessage } from "../model/messages.ts";
import type { Model } from "../model/model.ts";
import { createPermissionGate, type PermissionMode } from "../permissions/gate.ts";
import type { Ruleset } from "../permissions/types.ts";
import type { CommandPolicy } from "../sandbox/policy.ts";
import { activationOutcome } from "../subagents/activation-kit.ts";
import { type ChildCommandsInput, type ChildHost, childFromSpec } from "../subagents/child-from-spec.ts";
import type { LoopChildSpec } from "../subagents/child-spec.ts";
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
  /** This worker's tools: a child gets those its spec names, never more (and never the spawn tools). */
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
    local = await queuedChild(data, runtime, await queuedWorkspace(data, jobId, connections.cacheDir));
  } catch (error) {
    await publish({ type: "end" });
    return result(connections, errorOutcome(error, data.spec.sessionId, started), [], []);
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
 * The rules and mode a job's child runs with on this worker: its spec's, narrowed unless the worker
 * allows bypass — `bypass` becomes `accept-edits` (edits allowed, commands the sandbox covers allowed,
 * anything else asked, and there is nobody to ask) and leaving the sandbox is denied, last so it wins.
 */
export function jobPermissions(
  spec: Pick<LoopChildSpec, "rules" | "mode">,
  allowBypass: boolean,
): { rules: Ruleset; mode: PermissionMode } {
  if (allowBypass) return { rules: spec.rules, mode: spec.mode };
  return {
    rules: [...spec.rules, { permission: "unsandboxed", pattern: "*", action: "deny" }],
    mode: spec.mode === "bypass" ? "accept-edits" : spec.mode,
  };
}

/**
 * The child its job's spec describes, made here (`childFromSpec`) with this worker as its host: its
 * models, tools, sandbox, and a gate with nobody to ask, under the worker's ceiling (`jobPermissions`).
 * Its session is in memory only, filled with the job's history: the conversation is the parent's,
 * which appends what this activation adds.
 */
async function queuedChild(
  data: JobData,
  runtime: WorkerRuntime,
  workspace: ChildWorkspace,
): Promise<LocalChild> {
  const { spec } = data;
  const host: ChildHost = {
    model: (id) => runtime.createModel(id),
    tools: () => runtime.tools(),
    gate: () => createPermissionGate(jobPermissions(spec, runtime.allowBypass === true)),
    commands: (input) => runtime.commands(input),
    ops: nodeOperations,
    ...(runtime.redact === undefined ? {} : { redact: runtime.redact }),
  };
  return childFromSpec(spec, host, workspace, async () => {
    const session = await Session.create({
      workspace: workspace.path,
      agentName: spec.agent.name,
      model: spec.model,
      id: spec.sessionId,
      persist: false,
    });
    for (const message of data.history) await session.append(message);
    return session;
  });
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

function errorOutcome(error: unknown, sessionId: string, startedAt: number): Outcome {
  const message = error instanceof Error ? error.message : String(error);
  return activationOutcome({ status: "error", error: message }, { sessionId, startedAt });
}
