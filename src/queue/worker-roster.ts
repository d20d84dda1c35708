import type { Redis } from "ioredis";

/**
 * The workers of a queue, as a parent sees them: each worker says it is alive every few seconds (a
 * sorted set of worker names, scored by when their word runs out, by Redis's own clock so machines'
 * clocks need not agree). A parent whose children wait on a queue with nobody left on it says so and
 * gives up after a while (`FleetClient`), instead of waiting in silence for a worker that may never come.
 */
export function rosterKey(prefix: string, queue: string): string {
  return `${prefix}:fleet:${queue}:workers`;
}

/** KEYS: the roster. ARGV: the worker, how long its word holds (ms). */
const ANNOUNCE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), ARGV[1])
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[2]) * 4)
return 1
`;

/** KEYS: the roster. The number of workers whose word still holds. */
const COUNT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
return redis.call('ZCOUNT', KEYS[1], '(' .. now, '+inf')
`;

/** This worker is alive for `holdsMs` from now. */
export async function announceWorker(
  client: Redis,
  key: string,
  worker: string,
  holdsMs: number,
): Promise<void> {
  await client.eval(ANNOUNCE, 1, key, worker, holdsMs);
}

/** This worker stops: it is off the roster at once. */
export async function retireWorker(client: Redis, key: string, worker: string): Promise<void> {
  await client.zrem(key, worker);
}

/** How many workers of the queue are alive now. */
export async function liveWorkers(client: Redis, key: string): Promise<number> {
  return Number(await client.eval(COUNT, 1, key));
}
