import type { Redis } from "ioredis";
import { RunLimitExceeded } from "../../agent/limits/run-limits.ts";
import type { AgentEvent } from "../../contracts/events.ts";
import type { Outcome } from "../../contracts/outcome.ts";
import type { UserMessage } from "../../model/messages.ts";
import type { LocalChild, LoopChildSpec } from "../../subagents/placement.ts";
import { activationOutcome, inProcessExecutor } from "../../subagents/placement.ts";
import { errorMessage } from "../../text/error-message.ts";
import type { FleetKey } from "../fleet-key.ts";
import { type JobKeys, jobKeys } from "../fleet-keys.ts";
import { JOB_VERSION, type JobData, type JobResult } from "../job-data.ts";
import { closeMailbox, type MailboxEntry, parseEntry, readEntries } from "../mailbox.ts";
import type { StreamMessage } from "../stream-message.ts";
import { type JobLock, lockHooks } from "./job-lock.ts";
import type { WorkerChildren } from "./worker-children.ts";
import { queuedChild, queuedWorkspace, type WorkerRuntime } from "./worker-host.ts";

/** What one job may use of its worker's connections. */
export interface JobConnections {
  commands: Redis;
  /** Calls `handler` at each message on `channel` until the returned function is called. */
  subscribe(channel: string, handler: () => void): Promise<() => void>;
  queue: string;
  prefix: string;
  /** `host:pid`, for the result and the logs. */
  worker: string;
  /** How often the parent's lease is checked (gone for good: the child is stopped). */
  leaseCheckMs: number;
  /** This worker's own folder: worktree children's repositories and worktrees. */
  cacheDir: string;
  /** The fleet's key: mailbox entries not signed with it for this job are skipped. */
  key?: FleetKey;
}

/** Makes the runtime of a job's child's own children, in its workspace here (`workerChildren`). */
export type JobChildren = (spec: LoopChildSpec, workspace: string) => Promise<WorkerChildren>;

/**
 * Runs one activation of a queued child with the same loop as in the parent's process
 * (`inProcessExecutor`), in the job's workspace: what the parent sends arrives through the job's
 * mailbox, the child's events go out on its channel, and the result brings back what the activation
 * added to the conversation. A job this worker cannot run (its workspace is not here, its model is
 * unknown) ends with an error outcome that says why. The moment the job's `lock` is lost the child
 * stops — no model call, tool or event more — and nothing of it is published (the caller gives the
 * job back).
 */
export async function runQueuedChild(
  data: JobData,
  jobId: string,
  runtime: WorkerRuntime,
  connections: JobConnections,
  lock: JobLock,
  makeChildren?: JobChildren,
): Promise<JobResult> {
  const { commands } = connections;
  const keys = jobKeys(connections.queue, jobId, connections.prefix);
  // A worker that lost the job says nothing more: another may be running it now.
  const publish = async (message: StreamMessage) => {
    if (lock.held()) await commands.publish(keys.events, JSON.stringify(message)).catch(() => 0);
  };
  const started = Date.now();
  const stop = new AbortController();
  // Its own children (when its spec lets it start some) run here and end with this activation.
  let children: WorkerChildren | undefined;
  const endChildren = () => children?.close().catch(() => {});
  // A lost lock stops its children too, at once: another worker may be running the job now.
  const lost = () => {
    stop.abort(lock.signal.reason);
    void endChildren();
  };
  if (lock.signal.aborted) lost();
  else lock.signal.addEventListener("abort", lost, { once: true });
  const { key } = connections;
  const signed = (value: unknown) =>
    key === undefined || key.verify("entry", { queue: connections.queue, jobId }, value);
  let local: LocalChild;
  try {
    const workspace = await queuedWorkspace(data, jobId, connections.cacheDir);
    // A job's word that its child may nest is checked against the depth limit it carries too.
    const nests = data.spec.spawn && data.spec.depth < data.spec.tree.maxDepth;
    children = nests ? await makeChildren?.(data.spec, workspace.path) : undefined;
    const spawnKit = children?.spawnKit;
    local = await queuedChild(data, runtime, workspace, {
      hooks: [lockHooks(lock)],
      ...(spawnKit === undefined ? {} : { spawnKit }),
    });
  } catch (error) {
    await endChildren();
    lock.signal.removeEventListener("abort", lost);
    await publish({ type: "end" });
    return result(connections, errorOutcome(error, data.spec.sessionId, started), [], []);
  }
  const historyLength = local.session.messages.length;
  // Its spans (its children's here too) join its parent's trace, under the task call that started it.
  const tracer = runtime.trace?.(data.spec.traceparent);
  const activation = inProcessExecutor(local, () => {}).start({
    messages: data.messages,
    signal: stop.signal,
    emit: (event: AgentEvent) => {
      tracer?.event(event);
      void publish({ type: "event", event });
    },
  });
  const endTrace = () => tracer?.close();
  void activation.done.then(endTrace, endTrace);

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
  const leaseWatch = watchLease(commands, keys, connections.leaseCheckMs, () => {
    if (!stop.signal.aborted) stop.abort("its parent stopped following it (its lease expired)");
  });
  try {
    const { outcome, branch, workspaceNote } = await activation.done;
    await endChildren();
    await reading;
    if (lock.held()) {
      const late = await closeMailbox(commands, keys, cursor).catch(() => []);
      for (const text of late) {
        const entry = parseEntry(text, signed);
        if (entry?.type === "message") unread.push(entry.message);
      }
    }
    await publish({ type: "end" });
    return {
      ...result(connections, outcome, local.session.messages.slice(historyLength), unread),
      ...(branch === undefined ? {} : { branch }),
      ...(workspaceNote === undefined ? {} : { workspaceNote }),
    };
  } finally {
    await endChildren();
    lock.signal.removeEventListener("abort", lost);
    clearInterval(leaseWatch);
    unsubscribe();
  }
}

/**
 * Calls `gone` once the parent's lease has been missing for half the time it lasts (its value): a
 * parent renews it every third of that, also as soon as it reaches Redis again, so a lease that
 * expired while Redis restarted is not taken for a parent that died. A Redis that does not answer
 * says nothing either way.
 */
function watchLease(commands: Redis, keys: JobKeys, everyMs: number, gone: () => void): NodeJS.Timeout {
  let lastingMs = 0;
  let missingSince: number | undefined;
  return setInterval(() => {
    void commands.get(keys.lease).then(
      (value) => {
        const now = Date.now();
        if (value !== null) {
          lastingMs = Number(value) || lastingMs;
          missingSince = undefined;
          return;
        }
        missingSince ??= now;
        if (now - missingSince >= lastingMs / 2) gone();
      },
      () => {},
    );
  }, everyMs);
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
  return activationOutcome({ status: "error", error: errorMessage(error) }, { sessionId, startedAt });
}
