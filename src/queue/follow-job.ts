import { Job } from "bullmq";
import { RunLimitExceeded } from "../agent/limits/run-limits.ts";
import { emptyUsage } from "../model/messages.ts";
import type { FollowInput } from "../subagents/executor.ts";
import type { FleetClient } from "./fleet-client.ts";
import { jobKeys } from "./fleet-keys.ts";
import { JOB_VERSION, type JobResult, jobResultSchema, problemOf } from "./job-data.ts";
import type { CancelReason } from "./mailbox.ts";
import { parseStreamMessage } from "./stream-message.ts";

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
    if (message?.type === "event") input.emit(message.event);
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
  let stopLost: (() => void) | undefined;
  try {
    await client.ready();
    await following.begin();
    job = await findJob(client, jobId);
    if (job === undefined) throw new Error(`its job ${jobId} is not on queue "${client.queueName}"`);
    if (input.signal.aborted) onAbort();
    else input.signal.addEventListener("abort", onAbort, { once: true });
    const unclaimed = warnUnclaimed(client, job);
    const lost = new Promise<never>((_, reject) => {
      stopLost = client.onLost((error) => reject(new Error(error)));
    });
    let value: unknown;
    let local: JobResult | undefined;
    try {
      const removed = removedBeforeTaken.then((result) => {
        local = result;
        return result;
      });
      value = await Promise.race([job.waitUntilFinished(client.events), lost, removed]).finally(() =>
        clearTimeout(unclaimed),
      );
    } catch (error) {
      const reason = messageOf(error);
      // BullMQ's words when a job's worker was lost on each of its allowed starts.
      if (reason.includes("stalled more than allowable limit"))
        throw new Error(
          `its worker was lost (killed, or cut off from Redis) on every start it was allowed (job ${jobId}; BullMQ: ${reason})`,
        );
      throw new Error(`its job ${jobId} failed: ${reason}`);
    }
    if (local !== undefined && value === local) return local;
    if (client.key !== undefined && !client.key.verify("result", { queue: client.queueName, jobId }, value))
      throw new Error(
        `its job ${jobId} came back with a result not signed with the fleet's key (AGENTRY_FLEET_KEY): a worker without the key, or a result someone else wrote to Redis; it was not read`,
      );
    const parsed = jobResultSchema.safeParse(value);
    if (!parsed.success)
      throw new Error(`its worker returned a result this agentry cannot read (${problemOf(parsed.error)})`);
    await Promise.race([lastEvent, new Promise((resolve) => setTimeout(resolve, LAST_EVENTS_MS).unref())]);
    return parsed.data as JobResult;
  } finally {
    stopLost?.();
    input.signal.removeEventListener("abort", onAbort);
    releaseLease();
    unsubscribe();
  }
}

/** The `worker` of a result made by the parent itself (its job was removed before a worker took it). */
const NO_WORKER = "none";

function abortedBeforeTaken(reason: CancelReason, sessionId: string, started: number): JobResult {
  const base = { text: "", turns: 0, usage: emptyUsage(), durationMs: Date.now() - started, sessionId };
  const outcome: JobResult["outcome"] =
    reason.kind === "limit"
      ? reason.limit === "stall"
        ? { ...base, status: "error", error: reason.message, reason: "stalled" }
        : { ...base, status: "budget_exceeded", reason: reason.message, budget: reason.limit }
      : { ...base, status: "aborted", reason: reason.text };
  return { v: JOB_VERSION, outcome, messages: [], unread: [], worker: NO_WORKER };
}

/** Says so when no worker has taken the job after a while: without a worker, nothing would tell. */
function warnUnclaimed(client: FleetClient, job: Job): NodeJS.Timeout {
  const timer = setTimeout(() => {
    void job.getState().then(
      (state) => {
        if (state === "waiting" || state === "prioritized" || state === "delayed")
          client.warn(
            `no worker has taken job ${job.id} from queue "${client.queueName}" at ${client.target.label} in ${Math.round(client.unclaimedWarnMs / 1000)} s: start one with \`agentry worker --redis ${client.target.label} --queue ${client.queueName}\``,
          );
      },
      () => {},
    );
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

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
