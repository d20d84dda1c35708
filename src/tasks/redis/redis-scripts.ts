import type { Redis } from "ioredis";

/**
 * The Redis backend's two scripts. Each runs atomically on the server, so a write is a compare-and-set
 * on the session's `rev` (optimistic concurrency: no lock held across the network, and a process that
 * dies mid-write leaves nothing behind), and a read sends the text only when it changed.
 */

/**
 * KEYS[1] the session key. ARGV[1] the `rev` the caller holds ("" when none).
 * Returns nil when the session does not exist, `{rev}` when the caller's copy is current, else
 * `{rev, text}`. A session written by hand without a `rev` reads as rev "" (never current).
 */
const LOAD = `
local got = redis.call('HMGET', KEYS[1], 'rev', 'text')
if not got[2] then return nil end
local rev = got[1] or ''
if rev ~= '' and rev == ARGV[1] then return {rev} end
return {rev, got[2]}
`;

/**
 * KEYS: the session key, the set of sessions, the id index.
 * ARGV: the `rev` the text was computed from ("" for a new session), the new text, the channel, the
 * message to publish, then the ids this write creates.
 * Returns `{"ok", rev}`; `{"conflict"}` when the session changed meanwhile (re-read and retry);
 * `{"exists", id}` when a created id is already indexed to another session.
 */
const WRITE = `
local rev = redis.call('HGET', KEYS[1], 'rev') or ''
if rev ~= ARGV[1] then return {'conflict'} end
for i = 5, #ARGV do
  local owner = redis.call('HGET', KEYS[3], ARGV[i])
  if owner and owner ~= KEYS[1] then return {'exists', ARGV[i]} end
end
local next = tostring((tonumber(rev) or 0) + 1)
redis.call('HSET', KEYS[1], 'text', ARGV[2], 'rev', next)
redis.call('SADD', KEYS[2], KEYS[1])
for i = 5, #ARGV do redis.call('HSET', KEYS[3], ARGV[i], KEYS[1]) end
redis.call('PUBLISH', ARGV[3], ARGV[4])
return {'ok', next}
`;

export type LoadReply = null | [rev: string] | [rev: string, text: string];
export type WriteReply = ["ok", string] | ["conflict"] | ["exists", string];

export async function loadSession(client: Redis, key: string, rev: string): Promise<LoadReply> {
  return (await client.eval(LOAD, 1, key, rev)) as LoadReply;
}

/** `loadSession` of many keys in one round trip. */
export async function loadSessions(client: Redis, keys: readonly { key: string; rev: string }[]) {
  const pipeline = client.pipeline();
  for (const { key, rev } of keys) pipeline.eval(LOAD, 1, key, rev);
  const replies = (await pipeline.exec()) ?? [];
  return replies.map(([error, reply]) => {
    if (error) throw error;
    return reply as LoadReply;
  });
}

export interface WriteRequest {
  session: string;
  sessions: string;
  index: string;
  channel: string;
  expectedRev: string;
  text: string;
  message: string;
  createdIds: readonly string[];
}

export async function writeSession(client: Redis, request: WriteRequest): Promise<WriteReply> {
  const { session, sessions, index, channel, expectedRev, text, message, createdIds } = request;
  return (await client.eval(
    WRITE,
    3,
    session,
    sessions,
    index,
    expectedRev,
    text,
    channel,
    message,
    ...createdIds,
  )) as WriteReply;
}
