import { Redis, type RedisOptions } from "ioredis";
import { AgentryError, isAgentryError } from "../../errors/agentry-error.ts";
import { errorMessage } from "../../text/error-message.ts";

/** A `redis://` or `rediss://` URL that cannot be used: the person who gave it must fix it. */
export class RedisUrlError extends AgentryError {
  override readonly name = "RedisUrlError";
  readonly kind = "user";
}

/** Redis could not be reached, or was lost: the machine or the network must be fixed, or retried. */
export class RedisUnavailableError extends AgentryError {
  override readonly name = "RedisUnavailableError";
  readonly kind = "system";
}

/** A Redis server to use, as given and as it may be shown (without its password). */
export interface RedisTarget {
  url: string;
  /** The URL with any password replaced by `***`, for messages and logs. */
  label: string;
  /** The database the URL names (0 when it names none). */
  db: number;
}

/** Checks a URL before anything connects: `redis[s]://[user:password@]host[:port][/db]`. */
export function redisTarget(url: string): RedisTarget {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new RedisUrlError(`Not a Redis URL: ${JSON.stringify(url)}. Use redis://host:port/db.`);
  }
  if (parsed.protocol !== "redis:" && parsed.protocol !== "rediss:") {
    throw new RedisUrlError(
      `Not a Redis URL: ${JSON.stringify(redact(parsed))} (expected redis:// or rediss://, as in redis://127.0.0.1:6379/0).`,
    );
  }
  if (parsed.hostname === "") throw new RedisUrlError(`The Redis URL ${redact(parsed)} names no host.`);
  const db = parsed.pathname.replace(/^\//, "");
  if (db !== "" && !/^\d+$/.test(db)) {
    throw new RedisUrlError(`The Redis URL ${redact(parsed)} names database "${db}"; use a number (/0).`);
  }
  return { url, label: redact(parsed), db: Number(db || 0) };
}

function isReplyError(error: unknown): error is Error {
  return error instanceof Error && error.name === "ReplyError";
}

function redact(url: URL): string {
  if (url.password === "") return url.href;
  const copy = new URL(url.href);
  copy.password = "***";
  return copy.href;
}

export interface RedisConnectOptions {
  /** Shown in `CLIENT LIST` on the server: who this connection is. */
  name: string;
  /** How long the first connection may take (default 3 s). */
  connectTimeoutMs?: number;
  /**
   * `command` (default): a command sent while the connection is down waits for a few reconnection
   * attempts (~3 s), then fails, so a lost server becomes an error instead of a hang. `blocking`: the
   * connection BullMQ blocks on, whose commands wait for as long as it takes (BullMQ requires it).
   */
  role?: "command" | "blocking";
}

/**
 * Opens a connection and waits until it is ready. Redis unreachable at the start is a
 * `RedisUnavailableError` naming the server, why and what to do; a password it refuses is a
 * `RedisUrlError`. Nothing keeps retrying behind either.
 * Later, the client reconnects by itself (backoff up to 2 s) for as long as it is open.
 */
export async function connectRedis(target: RedisTarget, options: RedisConnectOptions): Promise<Redis> {
  const client = new Redis(target.url, redisOptions(options));
  // ioredis reports every failed (re)connection as an "error" event; without a listener Node would
  // treat it as unhandled. Callers learn of a lost server from their commands and the "close" event.
  // The first one says why connecting failed: `connect()` itself only rejects "Connection is closed."
  let why: unknown;
  client.on("error", (error: unknown) => {
    why ??= error;
  });
  try {
    await client.connect();
    // ioredis selects the URL's database as it connects, but a server that refuses (it has fewer)
    // only raises an "error" event and leaves the connection on database 0: another fleet's data.
    // Selected again here, the refusal is this call's.
    if (target.db !== 0) await client.select(target.db);
    return client;
  } catch (error) {
    client.disconnect();
    const cause = isReplyError(error) ? error : (why ?? error);
    // The server answered and refused (a wrong or missing password, a database it lacks): starting
    // one would not help.
    if (isReplyError(cause)) {
      throw new RedisUrlError(
        `Redis at ${target.label} refused the connection (${errorMessage(cause)}): check the user, the ` +
          "password and the database number in the URL (redis://user:password@host:port/db).",
        { cause },
      );
    }
    throw unavailable(target, cause);
  }
}

/**
 * The ioredis options of `connectRedis` (BullMQ opens its own connections with them too). Without
 * `replyMapping`, whose type the constructor's overloads intersect into one no value satisfies.
 */
export type ConnectionOptions = Omit<RedisOptions, "replyMapping">;

export function redisOptions(options: RedisConnectOptions): ConnectionOptions {
  return {
    lazyConnect: true,
    connectionName: options.name,
    connectTimeout: options.connectTimeoutMs ?? 3_000,
    maxRetriesPerRequest: options.role === "blocking" ? null : 5,
    retryStrategy: (times) => Math.min(100 * 2 ** (times - 1), 2_000),
    // The first attempt's failure rejects `connect()` at once instead of waiting for retries.
    reconnectOnError: () => false,
  };
}

export function unavailable(target: RedisTarget, cause: unknown): RedisUnavailableError {
  const detail = errorMessage(cause);
  return new RedisUnavailableError(
    `Cannot reach Redis at ${target.label} (${detail}). Start redis-server there, or point --store, ` +
      "AGENTRY_REDIS_URL or fleet.redis at a running one.",
    { cause },
  );
}

/** Runs a command; a connection that is down becomes a `RedisUnavailableError` naming the server. */
export async function redisCommand<T>(target: RedisTarget, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (isConnectionError(error)) throw unavailable(target, error);
    throw error;
  }
}

/**
 * The client's own failures ("connection is closed", retries exhausted …): no reply came. An error
 * reply of the server (`ReplyError`, e.g. a script error) and agentry's own errors are not.
 */
function isConnectionError(error: unknown): boolean {
  return error instanceof Error && !isAgentryError(error) && error.name !== "ReplyError";
}
