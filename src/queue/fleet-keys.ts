import { AgentryError } from "../errors/agentry-error.ts";
import { DEFAULT_REDIS_PREFIX } from "../tasks/redis/redis-keys.ts";

/** The BullMQ queue children go to unless configured otherwise. */
export const DEFAULT_QUEUE = "agentry";

/**
 * How long a job's lock lasts unrenewed (BullMQ renews it every quarter to half of that), and how
 * often stalled jobs are looked for. A killed worker's children start again elsewhere once its locks
 * ran out and a stalled check saw them: within about `lockMs + 2 × stalledIntervalMs` (10 s). Shorter
 * notices a dead worker sooner; too short, and a worker paused or starved longer than the lock loses
 * jobs it still runs — they stop on that worker the moment it notices (`JobLock`) and start again.
 */
export const DEFAULT_LOCK_MS = 6_000;
export const DEFAULT_STALLED_INTERVAL_MS = 2_000;

/**
 * The keys and channels of one queued job besides BullMQ's own (which live under BullMQ's `bull:`
 * prefix, so its tools show the queue as usual):
 *
 * - `mailbox` — a list of what the parent sends the running child, in order (messages, interrupts,
 *   a cancel); never trimmed while the job lives, so a retried attempt reads it from the start;
 * - `closed` — set by the worker when the child reads no more: a later send is the parent's to keep;
 * - `control` — the channel that rings the worker when the mailbox grew;
 * - `events` — the channel the worker publishes the child's events on;
 * - `lease` — kept alive by the parent while it follows the job; a worker stops a child whose lease
 *   expired (its parent is gone, and nobody would read its result);
 * - `result` — the job's result, kept by the worker that produced it while it held the job's lock, so
 *   a result outlives a job that ended otherwise (its lock lost just after, the job removed, a parent
 *   that died): a later attempt completes with it instead of running the child again, and a parent
 *   finds it there (`job-data.ts`).
 */
export interface JobKeys {
  mailbox: string;
  closed: string;
  control: string;
  events: string;
  lease: string;
  result: string;
}

export function jobKeys(queue: string, jobId: string, prefix = DEFAULT_REDIS_PREFIX): JobKeys {
  const base = `${prefix}:fleet:${queue}:job:${jobId}`;
  return {
    mailbox: `${base}:mailbox`,
    closed: `${base}:closed`,
    control: `${base}:control`,
    events: `${base}:events`,
    lease: `${base}:lease`,
    result: `${base}:result`,
  };
}

/** How long a job's own keys outlive its last write (a day): long enough for any follower. */
export const JOB_KEYS_TTL_S = 24 * 60 * 60;

/**
 * Why `name` cannot be a queue's name, or undefined when it can: a name is letters, digits, '.', '_'
 * and '-' (BullMQ keeps it in its keys, where ':' separates parts), never a URL.
 */
export function queueNameProblem(name: string): string | undefined {
  if (/^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/.test(name)) return undefined;
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(name)) return "it is a URL, not a name";
  return "a queue's name is letters, digits, '.', '_' and '-' (at most 100, starting with a letter or digit)";
}

/** A queue's name that is not one (a URL where the name goes, a ':' …). */
export class QueueNameError extends AgentryError {
  override readonly name = "QueueNameError";
  readonly kind = "user";
}

/** `name`, or a `QueueNameError` saying why it is not a queue's name. */
export function checkedQueueName(name: string): string {
  const problem = queueNameProblem(name);
  if (problem === undefined) return name;
  throw new QueueNameError(`${JSON.stringify(name)} is not a queue's name: ${problem}.`);
}
