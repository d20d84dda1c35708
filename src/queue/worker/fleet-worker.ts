import { mkdtemp, rm } from "node:fs/promises";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { type Job, Worker } from "bullmq";
import type { Redis } from "ioredis";
import { connectRedis, type RedisTarget, redisTarget } from "../../tasks/redis/redis-connection.ts";
import { DEFAULT_REDIS_PREFIX } from "../../tasks/redis/redis-keys.ts";
import { RedisTaskStore } from "../../tasks/redis/redis-task-store.ts";
import { ChannelHandlers } from "../channel-handlers.ts";
import type { FleetKey } from "../fleet-key.ts";
import {
  checkedQueueName,
  DEFAULT_LOCK_MS,
  DEFAULT_QUEUE,
  DEFAULT_STALLED_INTERVAL_MS,
} from "../fleet-keys.ts";
import type { JobData, JobResult } from "../job-data.ts";
import { letGo } from "../let-go.ts";
import { bullConnection, DEFAULT_ATTEMPTS } from "../parent/fleet-client.ts";
import { announceWorker, retireWorker, rosterKey } from "../worker-roster.ts";
import type { JobLock } from "./job-lock.ts";
import { type TakeJobDeps, takeJob } from "./take-job.ts";
import { workerChildren } from "./worker-children.ts";
import type { WorkerRuntime } from "./worker-host.ts";

/** How often a worker says it is alive (`worker-roster.ts`); its word holds three times as long. */
const ANNOUNCE_MS = 2_000;

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
  /** How long a job's lock lasts without renewal, i.e. how soon a dead worker is noticed (default 6 s). */
  lockMs?: number;
  /** How often stalled jobs (their lock expired) are looked for (default 2 s). */
  stalledIntervalMs?: number;
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
 * A BullMQ worker that notes each lock renewal's fate on the job's `JobLock`: a renewal sent at `t`
 * that was accepted holds the lock until `t + lockMs`; a refused one loses it.
 */
class LockedWorker extends Worker<JobData, JobResult> {
  /** The locks of the jobs this worker runs (`takeJob` adds and removes them). */
  locks = new Map<string, JobLock>();

  override async extendJobLocks(jobIds: string[], tokens: string[], duration: number): Promise<string[]> {
    const sentAt = Date.now();
    const refused = await super.extendJobLocks(jobIds, tokens, duration);
    for (const id of jobIds) {
      const lock = this.locks.get(id);
      if (refused.includes(id)) lock?.lose("another worker took the job (its lock renewal was refused)");
      else lock?.renewed(sentAt);
    }
    return refused;
  }
}

/**
 * A machine's share of a fleet: takes queued children from BullMQ and runs each with this machine's
 * models, tools and sandbox (`takeJob`). BullMQ's lock is its heartbeat: a job whose worker stopped
 * renewing it is stalled and started again, up to `attempts` starts in all, then it fails with the
 * reason; a worker that finds it lost a lock stops that child at once. It says it is alive on the
 * queue's roster, so a parent knows when none is left. `close` stops taking jobs and finishes the
 * ones it holds.
 */
export class FleetWorker {
  readonly name: string;
  private readonly worker: LockedWorker;
  private readonly commands: Redis;
  private readonly subscriber: Redis;
  private readonly bull: Redis;
  private readonly channels: ChannelHandlers;
  private readonly cacheDir: string;
  private readonly roster: string;
  private readonly announcing: NodeJS.Timeout;
  /** The fleet's task store, opened at the first job whose child may start children (their records). */
  private store: Promise<RedisTaskStore> | undefined;

  static async start(options: FleetWorkerOptions, runtime: WorkerRuntime): Promise<FleetWorker> {
    const target = redisTarget(options.url);
    checkedQueueName(options.queue ?? DEFAULT_QUEUE);
    // Its own folder: two workers of one machine never share a repository cache.
    const cacheDir = await mkdtemp(join(tmpdir(), "agentry-worker-"));
    const commands = await connectRedis(target, { name: "agentry-worker" });
    const subscriber = await connectRedis(target, { name: "agentry-worker-control" }).catch((error) => {
      commands.disconnect();
      throw error;
    });
    const worker = new FleetWorker(options, runtime, target, commands, subscriber, cacheDir);
    await worker.worker.waitUntilReady();
    await worker.announce();
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
    const lockMs = options.lockMs ?? DEFAULT_LOCK_MS;
    const log = options.log ?? (() => {});
    this.roster = rosterKey(prefix, queue);
    let warnedUnchecked = false;
    const locks = new Map<string, JobLock>();
    this.bull = bullConnection(target, "agentry-worker-queue");
    const deps: TakeJobDeps = {
      runtime,
      connections: {
        commands,
        subscribe: (channel: string, handler: () => void) => this.subscribe(channel, handler),
        queue,
        prefix,
        worker: this.name,
        leaseCheckMs: 1_000,
        cacheDir,
        ...(options.key === undefined ? {} : { key: options.key }),
      },
      ...(options.key === undefined ? {} : { key: options.key }),
      log,
      lockMs,
      locks,
      lockKey: (jobId) => this.worker.toKey(`${jobId}:lock`),
      unchecked: (jobId) => {
        if (warnedUnchecked) return;
        warnedUnchecked = true;
        log(
          `job ${jobId} is signed, but this worker has no fleet key to check it with: set AGENTRY_FLEET_KEY so that only signed jobs run`,
        );
      },
    };
    const childrenDeps = { runtime, commands, prefix, warn: (message: string) => log(`warning: ${message}`) };
    deps.children = async (spec, workspace) => {
      this.store ??= RedisTaskStore.connect(options.url, { prefix });
      const store = await this.store.catch((error: unknown) => {
        this.store = undefined;
        throw error;
      });
      return workerChildren(childrenDeps, spec, workspace, store);
    };
    this.worker = new LockedWorker(
      queue,
      (job: Job<JobData, JobResult>, token?: string) => takeJob(job, token, deps),
      {
        connection: this.bull,
        concurrency: options.concurrency ?? 1,
        lockDuration: lockMs,
        stalledInterval: options.stalledIntervalMs ?? DEFAULT_STALLED_INTERVAL_MS,
        // A stalled job starts again until it has started `attempts` times, then it fails.
        maxStalledCount: Math.max(0, (options.attempts ?? DEFAULT_ATTEMPTS) - 1),
        // Nothing is retried after an error thrown by the processor: a child's failure is its outcome.
        removeOnComplete: { age: 3600 },
        removeOnFail: { age: 24 * 3600 },
      },
    );
    this.worker.locks = locks;
    this.worker.on("error", () => {});
    this.worker.on("failed", (job, error) => {
      if (job) log(`job ${job.id} failed: ${error.message}`);
    });
    this.announcing = setInterval(() => void this.announce(), ANNOUNCE_MS);
    this.announcing.unref();
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
    clearInterval(this.announcing);
    if (!down) await retireWorker(this.commands, this.roster, this.name).catch(() => {});
    await letGo(closing, [this.subscriber, this.commands, this.bull]);
    await (await this.store?.catch(() => undefined))?.close().catch(() => {});
    await rm(this.cacheDir, { recursive: true, force: true }).catch(() => {});
  }

  private announce(): Promise<void> {
    return announceWorker(this.commands, this.roster, this.name, ANNOUNCE_MS * 3).catch(() => {});
  }

  private subscribe(channel: string, handler: () => void): Promise<() => void> {
    return this.channels.subscribe(channel, () => handler());
  }
}
