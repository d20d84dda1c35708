import type { Redis } from "ioredis";
import { z } from "zod";
import { messageSchema } from "../agent/session/transcript-schema.ts";
import type { UserMessage } from "../model/messages.ts";
import { JOB_KEYS_TTL_S, type JobKeys } from "./fleet-keys.ts";

/**
 * What a parent sends its queued child, in order: a message for its next turn, an interruption of its
 * current step, a cancel (with its reason: a budget of the tree travels as such, so the child's loop
 * ends `budget_exceeded` as it would locally). One ordered list, so an interruption never overtakes
 * the message it is for.
 */
export type MailboxEntry =
  | { type: "message"; message: UserMessage }
  | { type: "interrupt" }
  | { type: "cancel"; reason: CancelReason };

export type CancelReason =
  | { kind: "text"; text: string }
  | { kind: "limit"; limit: "tokens" | "time" | "tree" | "stall"; message: string };

const entrySchema = z.discriminatedUnion("type", [
  z.object({
    type: z.literal("message"),
    message: messageSchema.refine((message) => message.role === "user"),
  }),
  z.object({ type: z.literal("interrupt") }),
  z.object({
    type: z.literal("cancel"),
    reason: z.discriminatedUnion("kind", [
      z.object({ kind: z.literal("text"), text: z.string() }),
      z.object({
        kind: z.literal("limit"),
        limit: z.enum(["tokens", "time", "tree", "stall"]),
        message: z.string(),
      }),
    ]),
  }),
]);

/** KEYS: closed, mailbox, control. ARGV: entry, ttl. 0 when the child reads no more, else 1. */
const PUSH = `
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('RPUSH', KEYS[2], ARGV[1])
redis.call('EXPIRE', KEYS[2], ARGV[2])
redis.call('PUBLISH', KEYS[3], '1')
return 1
`;

/** KEYS: closed, mailbox. ARGV: the first entry not read yet, ttl. The entries not read. */
const CLOSE = `
redis.call('SET', KEYS[1], '1', 'EX', ARGV[2])
return redis.call('LRANGE', KEYS[2], ARGV[1], -1)
`;

/** Sends an entry; false when the child's activation reads no more (it has ended or is ending). */
export async function pushEntry(client: Redis, keys: JobKeys, entry: MailboxEntry): Promise<boolean> {
  const pushed = await client.eval(
    PUSH,
    3,
    keys.closed,
    keys.mailbox,
    keys.control,
    JSON.stringify(entry),
    JOB_KEYS_TTL_S,
  );
  return pushed === 1;
}

/** The entries from `from` on (an attempt reads the whole list from 0, in order). */
export async function readEntries(client: Redis, keys: JobKeys, from: number): Promise<string[]> {
  return client.lrange(keys.mailbox, from, -1);
}

/** Marks the mailbox closed and returns what arrived from `from` on, unread. */
export async function closeMailbox(client: Redis, keys: JobKeys, from: number): Promise<string[]> {
  return (await client.eval(CLOSE, 2, keys.closed, keys.mailbox, from, JOB_KEYS_TTL_S)) as string[];
}

/**
 * An entry as sent; undefined for anything this version cannot read, or that `accept` refuses (an
 * entry not signed with the fleet's key): it is skipped.
 */
export function parseEntry(
  text: string,
  accept: (value: unknown) => boolean = () => true,
): MailboxEntry | undefined {
  try {
    const value: unknown = JSON.parse(text);
    if (!accept(value)) return undefined;
    const parsed = entrySchema.safeParse(value);
    return parsed.success ? (parsed.data as MailboxEntry) : undefined;
  } catch {
    return undefined;
  }
}
