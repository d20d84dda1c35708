import type { Redis } from "ioredis";
import { parseTaskFile, serializeTaskFile } from "../stored/task-file.ts";
import { freezeRecord } from "../stored/task-file-cache.ts";
import { TaskExistsError, TaskStoreError } from "../task-errors.ts";
import type { TaskRecord } from "../task-record.ts";
import { type RedisTarget, redisCommand } from "./redis-connection.ts";
import type { RedisTaskKeys } from "./redis-keys.ts";
import { loadSession, writeSession } from "./redis-scripts.ts";

/** A change of one session's records: what to store (undefined: nothing) and what the caller gets. */
export interface SessionChange<T> {
  next: readonly TaskRecord[] | undefined;
  value: T;
  /** Ids this change adds: the write refuses them if another session holds them already. */
  created?: readonly string[];
}

interface PendingChange {
  apply: (records: readonly TaskRecord[]) => SessionChange<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

/** A write that keeps losing the compare-and-set this many times in a row gives up. */
const MAX_WRITE_ATTEMPTS = 100;

export interface SessionWritesOptions {
  client: Redis;
  target: RedisTarget;
  keys: RedisTaskKeys;
  /** The name of a session in errors. */
  locationOf(key: string): string;
  /** What a write stored, so reads that follow need not fetch it again. */
  wrote(key: string, rev: string, text: string, records: readonly TaskRecord[]): void;
}

/**
 * The Redis backend's writes. Each is a read-modify-write of one session: read it fresh, apply the
 * change, compare-and-set on its revision; when another writer got there first, read again and
 * re-apply (so a change must be a pure function of the records). A session that cannot be parsed
 * throws before anything is written, so it is never replaced.
 *
 * Group commit, as in the workspace backend: changes to one session that arrive while its write is in
 * flight are applied together by the next write, so a thousand children starting at once cost a few
 * round trips. A change that throws fails only its own call.
 */
export class RedisSessionWrites {
  private readonly options: SessionWritesOptions;
  private readonly pending = new Map<string, PendingChange[]>();

  constructor(options: SessionWritesOptions) {
    this.options = options;
  }

  mutate<T>(key: string, apply: (records: readonly TaskRecord[]) => SessionChange<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const change: PendingChange = { apply, resolve: resolve as (value: unknown) => void, reject };
      const waiting = this.pending.get(key);
      if (waiting) {
        waiting.push(change);
        return;
      }
      this.pending.set(key, [change]);
      void this.flush(key);
    });
  }

  private async flush(key: string): Promise<void> {
    for (let batch = this.pending.get(key); batch && batch.length > 0; batch = this.pending.get(key)) {
      this.pending.set(key, []);
      try {
        for (const [change, outcome] of await this.writeBatch(key, batch)) {
          if (outcome.ok) change.resolve(outcome.value);
          else change.reject(outcome.error);
        }
      } catch (error) {
        for (const change of batch) change.reject(error);
      }
    }
    this.pending.delete(key);
  }

  /** Writes one batch, retrying on conflicts; the outcome of each change. Throws for the whole batch. */
  private async writeBatch(
    key: string,
    batch: readonly PendingChange[],
  ): Promise<Map<PendingChange, Outcome>> {
    const { client, target, keys, locationOf } = this.options;
    /** Changes refused for good (an id another session holds): not applied again. */
    const refused = new Map<PendingChange, unknown>();
    for (let attempt = 0; attempt < MAX_WRITE_ATTEMPTS; attempt++) {
      const fresh = await redisCommand(target, () => loadSession(client, key, ""));
      const rev = fresh === null ? "" : fresh[0];
      const before: readonly TaskRecord[] =
        fresh === null || fresh.length === 1
          ? []
          : (await parseTaskFile(fresh[1], locationOf(key))).map(freezeRecord);
      const { records, outcomes, created, dirty } = applyAll(before, batch, refused);
      if (!dirty) return outcomes;
      const text = serializeTaskFile(records);
      // A change returns the records it leaves alone as they were: the others are what it wrote.
      const untouched = new Set(before);
      const changedIds = records.filter((record) => !untouched.has(record)).map((record) => record.taskId);
      const reply = await redisCommand(target, () =>
        writeSession(client, {
          session: key,
          sessions: keys.sessions,
          index: keys.index,
          channel: keys.changed,
          expectedRev: rev,
          text,
          message: JSON.stringify({ ids: changedIds }),
          createdIds: [...created.keys()],
        }),
      );
      if (reply[0] === "ok") {
        this.options.wrote(key, reply[1], text, records);
        return outcomes;
      }
      if (reply[0] === "exists") {
        const owner = created.get(reply[1]);
        if (owner) refused.set(owner, new TaskExistsError(reply[1]));
      }
    }
    throw new TaskStoreError(
      `Gave up writing ${locationOf(key)} after ${MAX_WRITE_ATTEMPTS} attempts: other writers kept changing it.`,
    );
  }
}

/** Applies a batch's changes in order to the records read; a change that throws fails alone. */
function applyAll(
  before: readonly TaskRecord[],
  batch: readonly PendingChange[],
  refused: ReadonlyMap<PendingChange, unknown>,
) {
  let records = before;
  const outcomes = new Map<PendingChange, Outcome>();
  const created = new Map<string, PendingChange>();
  let dirty = false;
  for (const change of batch) {
    if (refused.has(change)) {
      outcomes.set(change, { ok: false, error: refused.get(change) });
      continue;
    }
    try {
      const result = change.apply(records);
      if (result.next) {
        records = result.next;
        dirty = true;
      }
      for (const id of result.created ?? []) created.set(id, change);
      outcomes.set(change, { ok: true, value: result.value });
    } catch (error) {
      outcomes.set(change, { ok: false, error });
    }
  }
  return { records, outcomes, created, dirty };
}
