import { createHash, randomBytes } from "node:crypto";
import type { Redis } from "ioredis";
import type {
  AdaptiveLimiter,
  CallResult,
  CapacityWait,
  LimiterOptions,
  LimiterState,
  Permit,
} from "../model/adaptive-limiter.ts";
import type { EndpointLimiter, ModelLimiters, SharedLimiterFactory } from "../model/model-limiters.ts";
import { connectRedis, redisTarget } from "../tasks/redis/redis-connection.ts";
import { DEFAULT_REDIS_PREFIX } from "../tasks/redis/redis-keys.ts";
import { ChannelHandlers } from "./channel-handlers.ts";
import { letGo } from "./let-go.ts";

/** How long a permit holds without renewal: a process that died frees its permits then. */
const LEASE_MS = 60_000;
/** A waiting call tries again this often even when no release is heard (a message may be lost). */
const RETRY_MS = 500;

/**
 * KEYS: the endpoint's state (hash), its permits (zset). ARGV: permit, lease, initial.
 * A permit when one is free: {1, limit, inFlight, seq, saturated}; else {0, limit, inFlight, resumeInMs (-1: a slot)}.
 */
const ACQUIRE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
local limit = tonumber(redis.call('HGET', KEYS[1], 'limit') or ARGV[3])
local paused = tonumber(redis.call('HGET', KEYS[1], 'pausedUntil') or '0')
local inflight = redis.call('ZCARD', KEYS[2])
if now < paused then return {0, limit, inflight, paused - now} end
if inflight >= limit then return {0, limit, inflight, -1} end
local seq = redis.call('HINCRBY', KEYS[1], 'sent', 1)
redis.call('ZADD', KEYS[2], now + tonumber(ARGV[2]), ARGV[1])
redis.call('PEXPIRE', KEYS[2], tonumber(ARGV[2]) * 2)
redis.call('PEXPIRE', KEYS[1], 86400000)
local saturated = 0
if inflight + 1 >= limit then saturated = 1 end
return {1, limit, inflight + 1, seq, saturated}
`;

/** KEYS: permits. ARGV: permit, lease. A held permit's lease starts again (by Redis's clock). */
const RENEW = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
return redis.call('ZADD', KEYS[1], 'XX', now + tonumber(ARGV[2]), ARGV[1])
`;

/**
 * KEYS: state, permits, channel. ARGV: permit, kind (ok | throttled | other), seq, saturated,
 * retryAfterMs, min, max, initial, probeMs, maxPauseMs. The learning of `AdaptiveLimiter`, once for
 * every machine: grow on a saturated success (fast below the last refused limit, a probe per
 * `probeMs` above it), shrink by one per refusal but by at most half per burst, pause on retry-after.
 */
const RELEASE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREM', KEYS[2], ARGV[1])
local min, max = tonumber(ARGV[6]), tonumber(ARGV[7])
local limit = tonumber(redis.call('HGET', KEYS[1], 'limit') or ARGV[8])
local threshold = tonumber(redis.call('HGET', KEYS[1], 'threshold') or ARGV[7])
local grown = tonumber(redis.call('HGET', KEYS[1], 'grownAt') or '0')
if ARGV[2] == 'ok' and ARGV[4] == '1' and limit < max then
  if limit < threshold then limit = limit + 1
  elseif now - grown >= tonumber(ARGV[9]) then limit = limit + 1; grown = now end
elseif ARGV[2] == 'throttled' then
  local sent = tonumber(redis.call('HGET', KEYS[1], 'sent') or '0')
  local burst = tonumber(redis.call('HGET', KEYS[1], 'burstStart') or '0')
  local floor = tonumber(redis.call('HGET', KEYS[1], 'burstFloor') or tostring(min))
  if tonumber(ARGV[3]) >= burst then
    redis.call('HSET', KEYS[1], 'burstStart', sent + 1)
    floor = math.max(min, math.floor(limit / 2))
    redis.call('HSET', KEYS[1], 'burstFloor', floor)
  end
  limit = math.max(floor, limit - 1)
  threshold = limit
  grown = now
  local after = tonumber(ARGV[5])
  if after > 0 then
    local paused = tonumber(redis.call('HGET', KEYS[1], 'pausedUntil') or '0')
    redis.call('HSET', KEYS[1], 'pausedUntil', math.max(paused, now + math.min(after, tonumber(ARGV[10]))))
  end
end
redis.call('HSET', KEYS[1], 'limit', limit, 'threshold', threshold, 'grownAt', grown)
redis.call('PEXPIRE', KEYS[1], 86400000)
redis.call('PUBLISH', KEYS[3], '1')
return limit
`;

/**
 * The model limiters of every machine of a fleet, one per endpoint, kept on its Redis: calls in flight
 * are counted across machines (each call holds a permit there, leased so a dead process frees its own)
 * and the limit adapts to what the provider answers any of them, as `AdaptiveLimiter` adapts one
 * process's (`ModelLimiters.shareWith`). Ten workers on one key learn its limit once and hold it
 * together. While Redis does not answer, each machine limits its own calls as before (`local`).
 * Rate-limit windows (headers) stay each process's own.
 */
export function fleetLimits(commands: Redis, subscriber: Redis, prefix: string): SharedLimiterFactory {
  const channels = new ChannelHandlers(subscriber);
  return (endpoint, options, local) =>
    new SharedLimiter(endpoint, options, local, { commands, channels, prefix });
}

interface Waiter {
  signal: AbortSignal | undefined;
  onQueued: ((wait: CapacityWait) => void) | undefined;
  announced: boolean;
  grant(permit: Permit): void;
  fail(error: unknown): void;
}

class SharedLimiter implements EndpointLimiter {
  private readonly options: Readonly<LimiterOptions>;
  private readonly local: AdaptiveLimiter;
  private readonly commands: Redis;
  private readonly keys: { state: string; permits: string; freed: string };
  private readonly queue: Waiter[] = [];
  private seen: { limit: number; inFlight: number; resumeInMs: number };
  private pumping = false;
  private wake: (() => void) | undefined;
  private listening: Promise<unknown> | undefined;
  private readonly channels: ChannelHandlers;

  constructor(
    endpoint: string,
    options: Readonly<LimiterOptions>,
    local: AdaptiveLimiter,
    deps: { commands: Redis; channels: ChannelHandlers; prefix: string },
  ) {
    this.options = options;
    this.local = local;
    this.commands = deps.commands;
    this.channels = deps.channels;
    const base = `${deps.prefix}:limits:${createHash("sha256").update(endpoint).digest("hex").slice(0, 32)}`;
    this.keys = { state: base, permits: `${base}:permits`, freed: `${base}:freed` };
    this.seen = { limit: options.initial, inFlight: 0, resumeInMs: -1 };
  }

  get state(): LimiterState {
    return { limit: this.seen.limit, inFlight: this.seen.inFlight, waiting: this.queue.length };
  }

  /** Never at once: the count is on Redis. `acquire` asks it. */
  tryAcquire(): Permit | undefined {
    return undefined;
  }

  waitInfo(): CapacityWait {
    const { resumeInMs } = this.seen;
    return resumeInMs > 0
      ? { ...this.state, reason: "retry_after", resumeInMs }
      : { ...this.state, reason: "limit" };
  }

  acquire(signal?: AbortSignal, onQueued?: (wait: CapacityWait) => void): Promise<Permit> {
    signal?.throwIfAborted();
    this.listening ??= this.channels.subscribe(this.keys.freed, () => this.wake?.()).catch(() => undefined);
    return new Promise<Permit>((resolve, reject) => {
      const waiter: Waiter = {
        signal,
        onQueued,
        announced: false,
        grant: (permit) => {
          signal?.removeEventListener("abort", onAbort);
          resolve(permit);
        },
        fail: (error) => {
          signal?.removeEventListener("abort", onAbort);
          reject(error);
        },
      };
      const onAbort = () => {
        const index = this.queue.indexOf(waiter);
        if (index >= 0) this.queue.splice(index, 1);
        waiter.fail(signal?.reason);
        this.wake?.();
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      this.queue.push(waiter);
      void this.pump();
    });
  }

  /** Asks Redis for a permit for the first waiter, in arrival order, until none waits. */
  private async pump(): Promise<void> {
    if (this.pumping) return;
    this.pumping = true;
    try {
      while (this.queue.length > 0) {
        const head = this.queue[0]!;
        const id = randomBytes(8).toString("hex");
        if (this.commands.status !== "ready") {
          this.fallBack();
          continue;
        }
        let reply: number[];
        try {
          reply = (await this.commands.eval(
            ACQUIRE,
            2,
            this.keys.state,
            this.keys.permits,
            id,
            LEASE_MS,
            this.options.initial,
          )) as number[];
        } catch {
          this.fallBack();
          continue;
        }
        const [granted = 0, limit = this.seen.limit, inFlight = 0, fourth = -1, saturated = 0] = reply;
        this.seen = { limit, inFlight, resumeInMs: granted === 1 ? -1 : fourth };
        if (this.queue[0] !== head) {
          // It gave up meanwhile: a permit taken for it is given back at once.
          if (granted === 1) void this.release(id, fourth, false, { kind: "aborted" });
          continue;
        }
        if (granted === 1) {
          this.queue.shift();
          head.grant(this.permit(id, fourth, saturated === 1));
          continue;
        }
        if (!head.announced) {
          head.announced = true;
          head.onQueued?.(this.waitInfo());
        }
        await this.nextChance(fourth > 0 ? fourth : RETRY_MS);
      }
    } finally {
      this.pumping = false;
    }
  }

  /** Redis is away: the first waiter is limited by this machine's own limiter until it is back. */
  private fallBack(): void {
    const head = this.queue.shift();
    if (head !== undefined) this.local.acquire(head.signal).then(head.grant, head.fail);
  }

  /** Resolves when a permit is freed somewhere, after `ms`, or when a waiter gives up. */
  private nextChance(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, Math.min(ms, RETRY_MS * 4));
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wake = () => {
        this.wake = undefined;
        done();
      };
    });
  }

  private permit(id: string, seq: number, saturated: boolean): Permit {
    const renew = setInterval(() => {
      void this.commands.eval(RENEW, 1, this.keys.permits, id, LEASE_MS).catch(() => {});
    }, LEASE_MS / 3);
    renew.unref();
    let released = false;
    return {
      release: (result: CallResult) => {
        if (released) return;
        released = true;
        clearInterval(renew);
        void this.release(id, seq, saturated, result);
      },
    };
  }

  private async release(id: string, seq: number, saturated: boolean, result: CallResult): Promise<void> {
    const kind = result.kind === "ok" ? "ok" : result.kind === "throttled" ? "throttled" : "other";
    const retryAfter = result.kind === "throttled" ? (result.retryAfterMs ?? 0) : 0;
    const { min, max, initial, probeMs, maxPauseMs } = this.options;
    await this.commands
      .eval(
        RELEASE,
        3,
        this.keys.state,
        this.keys.permits,
        this.keys.freed,
        id,
        kind,
        seq,
        saturated ? 1 : 0,
        retryAfter,
        min,
        max,
        initial,
        probeMs,
        maxPauseMs,
      )
      .catch(() => {});
    this.wake?.();
  }
}

/**
 * Shares `limiters`' endpoint limits through the fleet's Redis at `url` from now on (two connections
 * of their own: commands, and the channel that says a permit was freed). Returns what closes them.
 */
export async function shareLimits(
  url: string,
  limiters: ModelLimiters,
  prefix = DEFAULT_REDIS_PREFIX,
): Promise<() => Promise<void>> {
  const target = redisTarget(url);
  const commands = await connectRedis(target, { name: "agentry-limits" });
  const subscriber = await connectRedis(target, { name: "agentry-limits-freed" }).catch((error: unknown) => {
    commands.disconnect();
    throw error;
  });
  limiters.shareWith(fleetLimits(commands, subscriber, prefix));
  return () => letGo(Promise.resolve(), [subscriber, commands]);
}
