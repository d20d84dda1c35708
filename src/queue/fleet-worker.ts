import { mkdtemp, rm } from "node:fs/promises";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { type Job, UnrecoverableError, Worker } from "bullmq";
import type { Redis } from "ioredis";
import { connectRedis, type RedisTarget, redisTarget } from "../tasks/redis-connection.ts";
import { DEFAULT_REDIS_PREFIX } from "../tasks/redis-keys.ts";
import { ChannelHandlers } from "./channel-handlers.ts";
import { bullConnection, DEFAULT_ATTEMPTS } from "./fleet-client.ts";
import type { FleetKey } from "./fleet-key.ts";
import { DEFAULT_QUEUE } from "./fleet-keys.ts";
import { type JobData, type JobResult, jobDataSchema, problemOf } from "./job-data.ts";
import { letGo } from "./let-go.ts";
import { runQueuedChild, type WorkerRuntime } from "./run-queued-child.ts";

export interface FleetWorkerOptions {
  /** `redis://host:port/db`: the fleet's server. */
  url: string;
  queue?: string;
  /** How many children it runs at once (default 1). */
  concurrency?: number;
  /**
   * How many times a child is started before a lost worker fails it (default 2): a worker that dies
   * mid-child (killed, cut off) is noticed when its lock expires, and the child starts again elsewhere.
   */
  attempts?: number;
  /** How long a job's lock lasts without renewal, i.e. how soon a dead worker is noticed (default 30 s). */
  lockMs?: number;
  prefix?: string;
  /** One line per job (its start and its end), for the person running the worker. */
  log?: (line: string) => void;
  /**
   * The fleet's key (`AGENTRY_FLEET_KEY`): a job not signed with it is refused (and logged), a mailbox
   * entry not signed with it is skipped, and results are signed with it. Default: none.
   */
  key?: FleetKey;
}

/**
 * A machine's share of a fleet: takes queued children from BullMQ and runs each with this machine's
 * models, tools and sandbox (`runQueuedChild`). BullMQ's lock is its heartbeat: a job whose worker
 * stopped renewing it is stalled and started again, up to `attempts` starts in all, then it fails with
 * the reason. `close` stops taking jobs and finishes the ones it holds.
 */
export class FleetWorker {
  readonly name: string;
  private readonly worker: Worker<JobData, JobResult>;
  private readonly commands: Redis;
  private readonly subscriber: Redis;
  private readonly bull: Redis;
  private readonly channels: ChannelHandlers;
  private readonly cacheDir: string;

  static async start(options: FleetWorkerOptions, runtime: WorkerRuntime): Promise<FleetWorker> {
    const target = redisTarget(options.url);
    // Its own folder: two workers of one machine never share a repository cache.
    const cacheDir = await mkdtemp(join(tmpdir(), "agentry-worker-"));
    const commands = await connectRedis(target, { name: "agentry-worker" });
    const subscriber = await connectRedis(target, { name: "agentry-worker-control" }).catch((error) => {
      commands.disconnect();
      throw error;
    });
    const worker = new FleetWorker(options, runtime, target, commands, subscriber, cacheDir);
    await worker.worker.waitUntilReady();
    return worker;
  }

  private constructor(
    options: FleetWorkerOptions,
    runtime: WorkerRuntime,
    target: RedisTarget,
    commands: Redis,
    subscriber: Redis,
    cacheDir: string,
  ) {
    this.cacheDir = cacheDir;
    this.name = `${hostname()}:${process.pid}`;
    this.commands = commands;
    this.subscriber = subscriber;
    this.channels = new ChannelHandlers(subscriber);
    const queue = options.queue ?? DEFAULT_QUEUE;
    const prefix = options.prefix ?? DEFAULT_REDIS_PREFIX;
    const lockMs = options.lockMs ?? 30_000;
    const log = options.log ?? (() => {});
    const connections = {
      commands,
      subscribe: (channel: string, handler: () => void) => this.subscribe(channel, handler),
      queue,
      prefix,
      worker: this.name,
      leaseCheckMs: 1_000,
      cacheDir,
      ...(options.key === undefined ? {} : { key: options.key }),
    };
    const { key } = options;
    let warnedUnchecked = false;
    this.bull = bullConnection(target, "agentry-worker-queue");
    this.worker = new Worker<JobData, JobResult>(
      queue,
      async (job: Job<JobData, JobResult>) => {
        const id = job.id ?? "?";
        const scope = { queue, jobId: id };
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
        if (key === undefined && sig !== undefined && !warnedUnchecked) {
          warnedUnchecked = true;
          log(
            `job ${id} is signed, but this worker has no fleet key to check it with: set AGENTRY_FLEET_KEY so that only signed jobs run`,
          );
        }
        const parsed = jobDataSchema.safeParse(job.data);
        if (!parsed.success)
          throw new UnrecoverableError(
            `this worker cannot read the job (${problemOf(parsed.error)}): are the parent and the workers the same agentry version?`,
          );
        const data = parsed.data as JobData;
        log(`job ${id} ${data.spec.agentPath.join("/")} started (attempt ${job.attemptsStarted})`);
        const started = Date.now();
        const result = await runQueuedChild(data, id, runtime, connections);
        const { outcome } = result;
        const detail = outcome.status === "error" ? `: ${outcome.error}` : "";
        log(
          `job ${id} ${data.spec.agentPath.join("/")} ${outcome.status} after ${Date.now() - started} ms, ${outcome.turns} turns${detail}`,
        );
        return key === undefined ? result : key.sign("result", scope, result);
      },
      {
        connection: this.bull,
        concurrency: options.concurrency ?? 1,
        lockDuration: lockMs,
        stalledInterval: Math.max(500, Math.floor(lockMs / 2)),
        // A stalled job starts again until it has started `attempts` times, then it fails.
        maxStalledCount: Math.max(0, (options.attempts ?? DEFAULT_ATTEMPTS) - 1),
        // Nothing is retried after an error thrown by the processor: a child's failure is its outcome.
        removeOnComplete: { age: 3600 },
        removeOnFail: { age: 24 * 3600 },
      },
    );
    this.worker.on("error", () => {});
    this.worker.on("failed", (job, error) => {
      if (job) log(`job ${job.id} failed: ${error.message}`);
    });
  }

  /**
   * Stops taking jobs and waits for the running ones to end (`force`: lets go of them at once; BullMQ
   * then hands them to another worker once their locks expire).
   */
  async close(force = false): Promise<void> {
    // With Redis gone, running jobs cannot be finished properly: let go of them at once.
    const down = this.commands.status !== "ready";
    const closing = this.worker.close(force || down);
    if (!(force || down)) await closing.catch(() => {});
    await letGo(closing, [this.subscriber, this.commands, this.bull]);
    await rm(this.cacheDir, { recursive: true, force: true }).catch(() => {});
  }

  private subscribe(channel: string, handler: () => void): Promise<() => void> {
    return this.channels.subscribe(channel, () => handler());
  }
}
