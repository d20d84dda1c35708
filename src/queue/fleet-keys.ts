import { DEFAULT_REDIS_PREFIX } from "../tasks/redis-keys.ts";

/** The BullMQ queue children go to unless configured otherwise. */
export const DEFAULT_QUEUE = "agentry";

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
 *   expired (its parent is gone, and nobody would read its result).
 */
export interface JobKeys {
  mailbox: string;
  closed: string;
  control: string;
  events: string;
  lease: string;
}

export function jobKeys(queue: string, jobId: string, prefix = DEFAULT_REDIS_PREFIX): JobKeys {
  const base = `${prefix}:fleet:${queue}:job:${jobId}`;
  return {
    mailbox: `${base}:mailbox`,
    closed: `${base}:closed`,
    control: `${base}:control`,
    events: `${base}:events`,
    lease: `${base}:lease`,
  };
}

/** How long a job's own keys outlive its last write (a day): long enough for any follower. */
export const JOB_KEYS_TTL_S = 24 * 60 * 60;
