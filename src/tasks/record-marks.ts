import { INBOX_MAX_MESSAGES } from "./task-limits.ts";
import type { TaskMessage, TaskRecord } from "./task-record.ts";
import { isFinished } from "./task-status.ts";

/**
 * The marks every backend puts on records by id (`requestCancel`, `heartbeat`, `markDelivered`,
 * `sendMessage`), as changes a backend applies under its own lock: each returns the record to
 * write, or undefined to leave it as it is. Zod-free, like the store's read path.
 */
export type RecordMark = (record: TaskRecord) => TaskRecord | undefined;

/** A cancel asked of a task still running; asked once. */
export const cancelMark: RecordMark = (record) =>
  isFinished(record.status) || record.cancelRequested ? undefined : { ...record, cancelRequested: true };

/** Proof of life of an unfinished task, at `at`. */
export const heartbeatMark =
  (at: string): RecordMark =>
  (record) =>
    isFinished(record.status) ? undefined : { ...record, updatedAt: at };

/** A finished task's result handed to its parent, at `at`; once. */
export const deliveredMark =
  (at: string): RecordMark =>
  (record) =>
    isFinished(record.status) && record.deliveredAt === undefined
      ? { ...record, deliveredAt: at }
      : undefined;

/**
 * A message for a working task's owner to deliver, added to its inbox once (by id); none for a
 * finished task or a full inbox. The record the store returns says whether it is there.
 */
export const messageMark =
  (message: TaskMessage): RecordMark =>
  (record) => {
    const inbox = record.inbox ?? [];
    if (isFinished(record.status) || inbox.length >= INBOX_MAX_MESSAGES) return undefined;
    if (inbox.some((queued) => queued.id === message.id)) return undefined;
    return { ...record, inbox: [...inbox, message] };
  };
