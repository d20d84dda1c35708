import { setTimeout as sleep } from "node:timers/promises";
import { type Job, UnrecoverableError, WaitingError } from "bullmq";
import type { FleetKey } from "../fleet-key.ts";
import { jobKeys } from "../fleet-keys.ts";
import {
  type JobData,
  type JobResult,
  jobDataSchema,
  keepResult,
  keptResult,
  problemOf,
} from "../job-data.ts";
import { JobLock } from "./job-lock.ts";
import { type JobChildren, type JobConnections, runQueuedChild } from "./run-queued-child.ts";
import type { WorkerRuntime } from "./worker-host.ts";

/** What taking one job needs of its worker. */
export interface TakeJobDeps {
  runtime: WorkerRuntime;
  connections: JobConnections;
  key?: FleetKey;
  log: (line: string) => void;
  /** How long a job's lock lasts unrenewed. */
  lockMs: number;
  /** The locks of the jobs this worker runs, by job id (their renewals are noted there). */
  locks: Map<string, JobLock>;
  /** BullMQ's lock key of a job. */
  lockKey(jobId: string): string;
  /** Said once per worker: a signed job reached a worker that cannot check signatures. */
  unchecked(jobId: string): void;
  /** The children a job's child starts here, when its spec lets it (`workerChildren`). */
  children?: JobChildren;
}

/**
 * One job, as BullMQ hands it to this worker (`token`: its lock). Refused unless signed (with a fleet
 * key) and well-formed; completed at once with the result an earlier attempt kept (`keptResult`),
 * so a produced result is never produced twice or lost; else its child runs under the job's lock. A
 * result is returned only when it was kept while the lock held. A worker that lost the lock gives the
 * job back (`WaitingError`): nothing of its run is recorded, and the attempt that holds it goes on.
 */
export async function takeJob(
  job: Job<JobData, JobResult>,
  token: string | undefined,
  deps: TakeJobDeps,
): Promise<JobResult> {
  const { connections, key, log } = deps;
  const id = job.id ?? "?";
  const scope = { queue: connections.queue, jobId: id };
  const sig = (job.data as { sig?: unknown }).sig;
  if (key !== undefined && !key.verify("job", scope, job.data)) {
    const why =
      sig === undefined
        ? "it is not signed"
        : "its signature does not match this worker's fleet key (AGENTRY_FLEET_KEY)";
    log(`job ${id} refused: ${why}: only a parent holding the fleet's key may give this worker work`);
    throw new UnrecoverableError(
      `this worker refused the job: ${why}; give the parent the fleet's key (AGENTRY_FLEET_KEY) the workers have`,
    );
  }
  if (key === undefined && sig !== undefined) deps.unchecked(id);
  const parsed = jobDataSchema.safeParse(job.data);
  if (!parsed.success)
    throw new UnrecoverableError(
      `this worker cannot read the job (${problemOf(parsed.error)}): are the parent and the workers the same agentry version?`,
    );
  const data = parsed.data as JobData;
  const path = data.spec.agentPath.join("/");
  const keys = { lock: deps.lockKey(id), result: jobKeys(connections.queue, id, connections.prefix).result };
  const kept = await keptResult(connections.commands, keys.result).catch(() => undefined);
  if (kept !== undefined) {
    log(
      `job ${id} ${path} completed with the result an earlier attempt kept (attempt ${job.attemptsStarted})`,
    );
    return kept as JobResult;
  }
  log(`job ${id} ${path} started (attempt ${job.attemptsStarted})`);
  const started = Date.now();
  const lock = new JobLock(job.processedOn ?? started, deps.lockMs);
  deps.locks.set(id, lock);
  try {
    const result = await runQueuedChild(data, id, deps.runtime, connections, lock, deps.children);
    const sealed = key === undefined ? result : key.sign("result", scope, result);
    if (token !== undefined && (await keepWhileHeld(connections, lock, keys, token, sealed))) {
      const { outcome } = result;
      const detail = outcome.status === "error" ? `: ${outcome.error}` : "";
      log(
        `job ${id} ${path} ${outcome.status} after ${Date.now() - started} ms, ${outcome.turns} turns${detail}`,
      );
      return sealed;
    }
    log(`job ${id} ${path} stopped here: ${String(lock.signal.reason ?? "it lost the job's lock")}`);
    // Back to the queue unless another worker holds it already; the stalled check moves it otherwise.
    if (token !== undefined) await job.moveToWait(token).catch(() => {});
    throw new WaitingError();
  } finally {
    deps.locks.delete(id);
    lock.dispose();
  }
}

/** Keeps the result while the lock holds, trying again while Redis does not answer; false once lost. */
async function keepWhileHeld(
  connections: JobConnections,
  lock: JobLock,
  keys: { lock: string; result: string },
  token: string,
  result: JobResult,
): Promise<boolean> {
  while (lock.held()) {
    try {
      if (await keepResult(connections.commands, keys, token, result)) return true;
      lock.lose("another worker holds the job's lock");
    } catch {
      await sleep(250);
    }
  }
  return false;
}
