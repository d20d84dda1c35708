import type { Redis } from "ioredis";
import { JOB_KEYS_TTL_S, jobKeys } from "./fleet-keys.ts";
import { type JobResult, jobResultSchema, problemOf } from "./job-data.ts";
import type { FleetClient } from "./parent/fleet-client.ts";

/**
 * A job's result as it came back (BullMQ's return value, or the copy its worker kept), read as
 * untrusted input: signed with the fleet's key when this parent has one, in the shape this version
 * reads. Throws what to tell the user otherwise.
 */
export function readResult(client: FleetClient, jobId: string, value: unknown): JobResult {
  if (client.key !== undefined && !client.key.verify("result", { queue: client.queueName, jobId }, value))
    throw new Error(
      `its job ${jobId} came back with a result not signed with the fleet's key (AGENTRY_FLEET_KEY): a worker without the key, or a result someone else wrote to Redis; it was not read`,
    );
  const parsed = jobResultSchema.safeParse(value);
  if (!parsed.success)
    throw new Error(`its worker returned a result this agentry cannot read (${problemOf(parsed.error)})`);
  return parsed.data as JobResult;
}

/**
 * The result a worker kept for the job while it held the job's lock (`keepResult`), or undefined:
 * none, Redis does not answer, or one that does not read (it is not taken).
 */
export async function keptResultOf(client: FleetClient, jobId: string): Promise<JobResult | undefined> {
  try {
    const value = await keptResult(client.commands, jobKeys(client.queueName, jobId, client.prefix).result);
    return value === undefined ? undefined : readResult(client, jobId, value);
  } catch {
    return undefined;
  }
}

/** KEYS: the job's BullMQ lock, its result. ARGV: the lock's token, the result, ttl (s). 1 when kept. */
const KEEP = `
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[2], ARGV[2], 'EX', ARGV[3])
return 1
`;

/**
 * Keeps a job's result (as it will be returned: signed when the worker has the fleet's key) beside
 * the job, only while `token` still holds the job's lock: a worker that lost the job keeps nothing, so
 * of two workers that ran one job only the lock's holder's result is kept. False when the lock was
 * not held (the caller gives the job back).
 */
export async function keepResult(
  client: Redis,
  keys: { lock: string; result: string },
  token: string,
  result: unknown,
): Promise<boolean> {
  const kept = await client.eval(
    KEEP,
    2,
    keys.lock,
    keys.result,
    token,
    JSON.stringify(result),
    JOB_KEYS_TTL_S,
  );
  return kept === 1;
}

/** The result kept for a job (as it was kept: still to be checked by whoever reads it), or undefined. */
export async function keptResult(client: Redis, resultKey: string): Promise<unknown> {
  const text = await client.get(resultKey);
  if (text === null) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
