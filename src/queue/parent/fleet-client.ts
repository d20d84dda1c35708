import { Queue, QueueEvents } from "bullmq";
import { Redis } from "ioredis";
import {
  connectRedis,
  type RedisTarget,
  redisOptions,
  redisTarget,
} from "../../tasks/redis/redis-connection.ts";
import { DEFAULT_REDIS_PREFIX } from "../../tasks/redis/redis-keys.ts";
import { ChannelHandlers } from "../channel-handlers.ts";
import type { FleetKey, SignedKind } from "../fleet-key.ts";
import { checkedQueueName, DEFAULT_QUEUE } from "../fleet-keys.ts";
import { letGo } from "../let-go.ts";
import { rosterKey } from "../worker-roster.ts";
import { FleetWatch } from "./fleet-watch.ts";

export interface FleetClientOptions {
  /** `redis://host:port/db`: the fleet's server (its task store lives there too). */
  url: string;
  /** The BullMQ queue children go to (default `agentry`). */
  queue?: string;
  /** How many times a child is started before a lost worker (killed, cut off) fails it (default 2). */
  attempts?: number;
  /** The git remote worktree children's snapshots and branches go through (default: `origin`). */
  remote?: string;
  /** How long a worker keeps a child whose parent stopped renewing its lease (default 30 s). */
  leaseMs?: number;
  /**
   * How long Redis may be unreachable before queued children end with an error (default 60 s): a
   * restart that keeps its data (appendonly) is ridden out; one that lost it ends them, saying so.
   */
  lostAfterMs?: number;
  /**
   * How long queued children wait when no worker is left on the queue before they end with an error
   * (default 10 min). The parent says so at once, and again when a worker is back.
   */
  noWorkerTimeoutMs?: number;
  /** How often the queue's workers are counted while children wait (default 2 s). */
  workerCheckMs?: number;
  /** Namespace of agentry's own keys (default `agentry`). */
  prefix?: string;
  /** How long a job may wait for a worker before `warn` says so (default 15 s). */
  unclaimedWarnMs?: number;
  /** Where problems that do not end a child go (no worker took its job yet …). Default: none. */
  warn?: (message: string) => void;
  /**
   * The fleet's key (`AGENTRY_FLEET_KEY`): jobs and mailbox entries are signed with it, and a worker's
   * result is read only when signed with it. Default: none (nothing signed, nothing checked).
   */
  key?: FleetKey;
}

export const DEFAULT_ATTEMPTS = 2;
export const DEFAULT_LOST_AFTER_MS = 60_000;
export const DEFAULT_NO_WORKER_TIMEOUT_MS = 10 * 60_000;

/**
 * The parent's side of a fleet, shared by all its queued children: a command connection (mailboxes,
 * leases), one subscriber for every child's events, the BullMQ queue jobs are added to and its event
 * stream (how a job's end is heard). `open` checks the server is there; `close` ends it all.
 */
export class FleetClient {
  readonly target: RedisTarget;
  readonly queueName: string;
  readonly attempts: number;
  readonly remote: string;
  readonly prefix: string;
  readonly leaseMs: number;
  readonly unclaimedWarnMs: number;
  readonly warn: (message: string) => void;
  readonly key: FleetKey | undefined;
  readonly commands: Redis;
  readonly queue: Queue;
  readonly events: QueueEvents;
  private readonly subscriber: Redis;
  /** BullMQ does not close a connection it was given: `close` does. */
  private readonly bullConnections: Redis[];
  private readonly channels: ChannelHandlers;
  private readonly leases = new Set<string>();
  private readonly leaseTimer: NodeJS.Timeout;
  /** Redis lost, no worker left: watched once for all the children followed here. */
  readonly watch: FleetWatch;

  static async open(options: FleetClientOptions): Promise<FleetClient> {
    const target = redisTarget(options.url);
    checkedQueueName(options.queue ?? DEFAULT_QUEUE);
    const commands = await connectRedis(target, { name: "agentry-fleet" });
    let subscriber: Redis | undefined;
    try {
      subscriber = await connectRedis(target, { name: "agentry-fleet-events" });
      return new FleetClient(options, target, commands, subscriber);
    } catch (error) {
      commands.disconnect();
      subscriber?.disconnect();
      throw error;
    }
  }

  private constructor(options: FleetClientOptions, target: RedisTarget, commands: Redis, subscriber: Redis) {
    this.target = target;
    this.queueName = options.queue ?? DEFAULT_QUEUE;
    this.attempts = options.attempts ?? DEFAULT_ATTEMPTS;
    this.remote = options.remote ?? "origin";
    this.prefix = options.prefix ?? DEFAULT_REDIS_PREFIX;
    this.leaseMs = options.leaseMs ?? 30_000;
    this.unclaimedWarnMs = options.unclaimedWarnMs ?? 15_000;
    this.warn = options.warn ?? (() => {});
    this.key = options.key;
    this.commands = commands;
    this.subscriber = subscriber;
    const queueConnection = bullConnection(target, "agentry-fleet-queue");
    const eventsConnection = bullConnection(target, "agentry-fleet-queue-events");
    this.bullConnections = [queueConnection, eventsConnection];
    this.queue = new Queue(this.queueName, { connection: queueConnection });
    this.queue.on("error", () => {});
    this.events = new QueueEvents(this.queueName, { connection: eventsConnection });
    this.events.on("error", () => {});
    // Each child following its job (waitUntilFinished) listens on both: a parent may have hundreds.
    this.queue.setMaxListeners(0);
    this.events.setMaxListeners(0);
    this.channels = new ChannelHandlers(subscriber);
    this.leaseTimer = setInterval(() => void this.renewLeases(), Math.max(100, this.leaseMs / 3));
    this.leaseTimer.unref();
    this.watch = new FleetWatch({
      commands,
      label: target.label,
      queue: this.queueName,
      roster: rosterKey(this.prefix, this.queueName),
      lostAfterMs: options.lostAfterMs ?? DEFAULT_LOST_AFTER_MS,
      noWorkerTimeoutMs: options.noWorkerTimeoutMs ?? DEFAULT_NO_WORKER_TIMEOUT_MS,
      workerCheckMs: options.workerCheckMs ?? 2_000,
      warn: this.warn,
      // A lease that ran out while Redis was away is set again before a worker looks for it.
      reconnected: () => void this.renewLeases(),
    });
  }

  /** `value` signed for job `jobId` when this parent has the fleet's key, else as it is. */
  seal<T extends object>(kind: SignedKind, jobId: string, value: T): T {
    return this.key === undefined ? value : this.key.sign(kind, { queue: this.queueName, jobId }, value);
  }

  /** Waits until the job event stream is read, so no job's end can be missed. */
  async ready(): Promise<void> {
    await Promise.all([this.queue.waitUntilReady(), this.events.waitUntilReady()]);
  }

  /** Calls `handler` with each message on `channel` from the moment this resolves. */
  subscribe(channel: string, handler: (message: string) => void): Promise<() => void> {
    return this.channels.subscribe(channel, handler);
  }

  /**
   * Keeps `key` alive (a job's lease) until the returned function is called. Its value is how long it
   * lasts, so a worker knows how long a missing lease may be only late.
   */
  async holdLease(key: string): Promise<() => void> {
    this.leases.add(key);
    await this.commands.set(key, String(this.leaseMs), "PX", this.leaseMs);
    return () => {
      this.leases.delete(key);
      void this.commands.del(key).catch(() => {});
    };
  }

  async close(): Promise<void> {
    clearInterval(this.leaseTimer);
    this.watch.close();
    await letGo(Promise.allSettled([this.events.close(), this.queue.close()]), [
      this.subscriber,
      this.commands,
      ...this.bullConnections,
    ]);
  }

  private async renewLeases(): Promise<void> {
    if (this.leases.size === 0) return;
    const pipeline = this.commands.pipeline();
    for (const key of this.leases) pipeline.set(key, String(this.leaseMs), "PX", this.leaseMs);
    await pipeline.exec().catch(() => {});
  }
}

/**
 * A connection for BullMQ, which requires commands that wait through a reconnection (its blocking
 * reads would fail otherwise). BullMQ duplicates it where it needs more than one.
 */
export function bullConnection(target: RedisTarget, name: string): Redis {
  const client = new Redis(target.url, { ...redisOptions({ name, role: "blocking" }), lazyConnect: false });
  client.on("error", () => {});
  return client;
}
