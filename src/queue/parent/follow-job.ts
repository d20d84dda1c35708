import { Job } from "bullmq";
import { RunLimitExceeded } from "../../agent/limits/run-limits.ts";
import type { AgentEvent } from "../../contracts/events.ts";
import type { OutcomeEnd } from "../../contracts/outcome.ts";
import type { FollowInput } from "../../subagents/placement.ts";
import { activationOutcome } from "../../subagents/placement.ts";
import { errorMessage } from "../../text/error-message.ts";
import { jobKeys } from "../fleet-keys.ts";
import { JOB_VERSION, type JobResult, keptResultOf, readResult } from "../job-data.ts";
import type { CancelReason } from "../mailbox.ts";
import { parseStreamMessage } from "../stream-message.ts";
import { liveWorkers, rosterKey } from "../worker-roster.ts";
import type { FleetClient } from "./fleet-client.ts";
import { FleetWaitError } from "./fleet-watch.ts";

/** How long after its job ended the parent waits for the last of a child's events (they travel apart). */
const LAST_EVENTS_MS = 1_000;

/** One job to follow to its result. */
export interface Following {
  jobId: string;
  /** The child's session id, for the outcome of a job cancelled before any worker took it. */
  sessionId: string;
  input: FollowInput;
  /** Tells the job's worker to stop (through its mailbox). */
  cancel(reason: CancelReason): void;
  /** Adds the job, once the follower listens (nothing for a job another process added). */
  begin(): Promise<void>;
}

/**
 * Follows one job to its result: its events reach `emit` in order, a cancel reaches its worker (and a
 * job no worker took yet is taken off the queue: it ends `aborted` at once), its lease is held while
 * it runs. A job that failed (its worker was lost more often than allowed, its data was refused) or
 * Redis lost for too long throws, with what to tell the user.
 */
export async function followJob(client: FleetClient, following: Following): Promise<JobResult> {
  const { jobId, input } = following;
  const started = Date.now();
  const keys = jobKeys(client.queueName, jobId, client.prefix);
  let ended!: () => void;
  const lastEvent = new Promise<void>((resolve) => {
    ended = resolve;
  });
  const unsubscribe = await client.subscribe(keys.events, (text) => {
    const message = parseStreamMessage(text);
    if (message?.type === "event") input.emit(relayed(message.event, client.queueName));
    else if (message?.type === "end") ended();
  });
  const releaseLease = await client.holdLease(keys.lease);
  let job: Job | undefined;
  let removed!: (result: JobResult) => void;
  const removedBeforeTaken = new Promise<JobResult>((resolve) => {
    removed = resolve;
  });
  const onAbort = () => {
    const reason = cancelReason(input.signal.reason);
    following.cancel(reason);
    // Still waiting for a worker: off the queue, and over. BullMQ refuses to remove a job a worker
    // holds; that worker reads the cancel instead.
    void job?.remove().then(
      () => removed(abortedBeforeTaken(reason, following.sessionId, started)),
      () => {},
    );
  };
  let dataLost!: (error: FleetWaitError) => void;
  const gone = new Promise<never>((_, reject) => {
    dataLost = reject;
  });
  gone.catch(() => {});
  // Redis is back after a loss: the job must still be there (its data kept), else the child ends.
  const watching = client.watch.follow(() => {
    void (async () => {
      const there = await Job.fromId(client.queue, jobId).then(
        (found) => found !== undefined,
        () => true,
      );
      if (!there && (await keptResultOf(client, jobId)) === undefined)
        dataLost(
          new FleetWaitError(
            `Redis at ${client.target.label} came back without its job ${jobId}: it kept none of the fleet's data across its restart (keep it with appendonly yes, or a replica)`,
          ),
        );
    })();
  });
  try {
    await client.ready();
    await following.begin();
    job = await findJob(client, jobId);
    if (job === undefined) {
      // Finished and removed from the queue since (a parent that follows it again, later): its result was kept.
      const kept = await keptResultOf(client, jobId);
      if (kept !== undefined) return kept;
      throw new Error(`its job ${jobId} is not on queue "${client.queueName}"`);
    }
    if (input.signal.aborted) onAbort();
    else input.signal.addEventListener("abort", onAbort, { once: true });
    const unclaimed = warnUnclaimed(client, job);
    let value: unknown;
    let local: JobResult | undefined;
    try {
      const removed = removedBeforeTaken.then((result) => {
        local = result;
        return result;
      });
      value = await Promise.race([
        job.waitUntilFinished(client.events),
        watching.ended,
        gone,
        removed,
      ]).finally(() => clearTimeout(unclaimed));
    } catch (error) {
      // A result its worker produced and kept counts, however the job ended afterwards (its lock lost
      // before BullMQ recorded it, then stalled too often).
      const kept = await keptResultOf(client, jobId);
      if (kept !== undefined) return kept;
      const reason = errorMessage(error);
      // BullMQ's words when a job's worker was lost on each of its allowed starts.
      if (reason.includes("stalled more than allowable limit"))
        throw new Error(
          `its worker was lost (killed, or cut off from Redis) on every start it was allowed (job ${jobId}; BullMQ: ${reason})`,
        );
      if (
        error instanceof Error &&
        (error.message.startsWith("lost the connection") ||
          error.message.startsWith("Redis at") ||
          error.message.startsWith("no worker took"))
      )
        throw error;
      throw new Error(`its job ${jobId} failed: ${reason}`);
    }
    if (local !== undefined && value === local) return local;
    const result = readResult(client, jobId, value);
    await Promise.race([lastEvent, new Promise((resolve) => setTimeout(resolve, LAST_EVENTS_MS).unref())]);
    return result;
  } finally {
    watching.stop();
    input.signal.removeEventListener("abort", onAbort);
    releaseLease();
    unsubscribe();
  }
}

/** The `worker` of a result made by the parent itself (its job was removed before a worker took it). */
const NO_WORKER = "none";

function abortedBeforeTaken(reason: CancelReason, sessionId: string, startedAt: number): JobResult {
  const end: OutcomeEnd =
    reason.kind === "limit"
      ? reason.limit === "stall"
        ? { status: "error", error: reason.message, reason: "stalled" }
        : { status: "budget_exceeded", reason: reason.message, budget: reason.limit }
      : { status: "aborted", reason: reason.text };
  const outcome = activationOutcome(end, { sessionId, startedAt });
  return { v: JOB_VERSION, outcome, messages: [], unread: [], worker: NO_WORKER };
}

/**
 * Says so when the job still waits for a worker after a while although workers are there (busy, or
 * of another version): with none at all, the fleet's watch says that instead (`FleetWatch`).
 */
function warnUnclaimed(client: FleetClient, job: Job): NodeJS.Timeout {
  const timer = setTimeout(() => {
    void (async () => {
      const state = await job.getState();
      if (state !== "waiting" && state !== "prioritized" && state !== "delayed") return;
      if ((await liveWorkers(client.commands, rosterKey(client.prefix, client.queueName))) === 0) return;
      client.warn(
        `no worker has taken job ${job.id} from queue "${client.queueName}" at ${client.target.label} in ${Math.round(client.unclaimedWarnMs / 1000)} s: the workers there are busy, or refuse it (their logs say why); start another with \`agentry worker --redis ${client.target.label} --queue ${client.queueName}\``,
      );
    })().catch(() => {});
  }, client.unclaimedWarnMs);
  timer.unref();
  return timer;
}

/** How long a follower waits for a job its starter has not added yet. */
const ADDED_WITHIN_MS = 10_000;

/**
 * The job, or undefined when it is not on the queue: a follower may look before the process that
 * started the activation added it, so it waits for BullMQ's `added` event (a while at most).
 */
async function findJob(client: FleetClient, jobId: string): Promise<Job | undefined> {
  const found = await Job.fromId(client.queue, jobId);
  if (found !== undefined) return found;
  return new Promise((resolve) => {
    let settled = false;
    const look = () => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      client.events.off("added", onAdded);
      Job.fromId(client.queue, jobId).then(resolve, () => resolve(undefined));
    };
    const onAdded = (args: { jobId: string }) => {
      if (args.jobId === jobId) look();
    };
    const timer = setTimeout(look, ADDED_WITHIN_MS);
    client.events.on("added", onAdded);
    // Added between the first look and the listener: look again now.
    void Job.fromId(client.queue, jobId).then(
      (job) => job !== undefined && look(),
      () => {},
    );
  });
}

/** A cancel as the worker's loop must see it: a run limit stays a limit (a budget ends `budget_exceeded`). */
export function cancelReason(reason: unknown): CancelReason {
  if (reason instanceof RunLimitExceeded)
    return { kind: "limit", limit: reason.limit, message: reason.message };
  if (typeof reason === "string" && reason !== "") return { kind: "text", text: reason };
  if (reason instanceof Error && reason.name !== "AbortError") return { kind: "text", text: reason.message };
  return { kind: "text", text: "aborted" };
}

/** An event from the job's worker: an agent starting there says where it runs (a trace leaves its spans to the worker). */
function relayed(event: AgentEvent, queue: string): AgentEvent {
  return event.type === "agent_start" && event.runsOn === undefined
    ? { ...event, runsOn: `queue ${queue}` }
    : event;
}
