import type { Redis } from "ioredis";
import { cancelMark, deliveredMark, heartbeatMark, messageMark, type RecordMark } from "../record-marks.ts";
import { checkListQuery, selectTasks } from "../select-tasks.ts";
import { parseTaskFile } from "../stored/task-file.ts";
import { freezeRecord } from "../stored/task-file-cache.ts";
import { TaskExistsError, TaskFileError, TaskNotFoundError } from "../task-errors.ts";
import type { NewTaskRecord, TaskMessage, TaskRecord } from "../task-record.ts";
import type {
  RunJournals,
  TaskChange,
  TaskListQuery,
  TaskStore,
  TaskUpdate,
  UpdateOptions,
} from "../task-store.ts";
import { checkId } from "../workspace/workspace-layout.ts";
import { connectRedis, type RedisTarget, redisCommand, redisTarget } from "./redis-connection.ts";
import { redisJournals } from "./redis-journals.ts";
import { DEFAULT_REDIS_PREFIX, type RedisTaskKeys, redisTaskKeys } from "./redis-keys.ts";
import { type LoadReply, loadSession, loadSessions } from "./redis-scripts.ts";
import { RedisSessionWrites } from "./redis-session-writes.ts";
import { RedisWatch } from "./redis-watch.ts";

// As in the workspace backend, the record rules (zod) load on the first write only.
const recordRules = () => import("../apply-patch.ts");

export interface RedisTaskStoreOptions {
  /** An open connection (`connectRedis`), which `close()` then closes. */
  client: Redis;
  target: RedisTarget;
  /** Namespace of the store's keys (default `agentry`): several fleets may share one server. */
  prefix?: string;
  /** The clock for createdAt/updatedAt/deliveredAt (tests pin it). */
  now?: () => Date;
}

interface Cached {
  rev: string;
  text: string;
  records: readonly TaskRecord[] | undefined;
  error: TaskFileError | undefined;
}

/**
 * The `TaskStore` on Redis, for a fleet: every machine that reaches the server sees and controls every
 * task. One hash per parent session holds its records in the workspace file's format; each write is a
 * compare-and-set on the session's revision (a script), so concurrent writers from any number of
 * processes lose no update, and a killed writer leaves no lock. Each write publishes the ids it
 * changed, which `watch` delivers. Key layout: `redis-keys.ts`.
 */
export class RedisTaskStore implements TaskStore {
  readonly target: RedisTarget;
  readonly keys: RedisTaskKeys;
  private readonly client: Redis;
  private readonly now: () => Date;
  private readonly cache = new Map<string, Cached>();
  /** Which session key holds a task id (ids never move). */
  private readonly located = new Map<string, string>();
  private readonly writes: RedisSessionWrites;
  private readonly watcher: RedisWatch;
  /** Workflow runs' journals, beside the records (`redis-journals.ts`). */
  readonly journals: RunJournals;

  /** Connects to `url` first: a server that cannot be reached is a `RedisUnavailableError` now. */
  static async connect(
    url: string,
    options: Omit<RedisTaskStoreOptions, "client" | "target"> = {},
  ): Promise<RedisTaskStore> {
    const target = redisTarget(url);
    const client = await connectRedis(target, { name: "agentry-tasks" });
    return new RedisTaskStore({ ...options, client, target });
  }

  constructor(options: RedisTaskStoreOptions) {
    this.client = options.client;
    this.target = options.target;
    this.keys = redisTaskKeys(options.prefix ?? DEFAULT_REDIS_PREFIX);
    this.now = options.now ?? (() => new Date());
    this.watcher = new RedisWatch(this.client, this.keys.changed);
    this.journals = redisJournals(this.client, this.target, options.prefix ?? DEFAULT_REDIS_PREFIX);
    this.writes = new RedisSessionWrites({
      client: this.client,
      target: this.target,
      keys: this.keys,
      locationOf: (key) => this.locationOf(key),
      wrote: (key, rev, text, records) => {
        this.cache.set(key, { rev, text, records, error: undefined });
        for (const record of records) this.located.set(record.taskId, key);
      },
    });
  }

  /** Where the records are, for messages: the server and the key prefix. */
  get location(): string {
    return `${this.target.label} (keys ${this.keys.sessions.replace(/:sessions$/, ":*")})`;
  }

  async create(input: NewTaskRecord): Promise<TaskRecord> {
    const { newRecord } = await recordRules();
    const record = freezeRecord(newRecord(input, this.now()));
    // Ids are unique across sessions too; an unreadable session elsewhere must not block creating here.
    const elsewhere = await this.locate(record.taskId).catch((error: unknown) => {
      if (error instanceof TaskFileError) return undefined;
      throw error;
    });
    if (elsewhere) throw new TaskExistsError(record.taskId);
    const key = this.keys.session(record.parentAgentId, record.parentSessionId);
    await this.writes.mutate(key, (records) => {
      if (records.some((existing) => existing.taskId === record.taskId))
        throw new TaskExistsError(record.taskId);
      return { next: [...records, record], value: undefined, created: [record.taskId] };
    });
    return record;
  }

  async get(taskId: string): Promise<TaskRecord | undefined> {
    const key = await this.locate(taskId);
    if (!key) return undefined;
    return (await this.load(key))?.find((record) => record.taskId === taskId);
  }

  async update(taskId: string, patch: TaskUpdate, options: UpdateOptions = {}): Promise<TaskRecord> {
    const key = await this.require(taskId);
    const { applyPatch } = await recordRules();
    return this.writes.mutate(key, (records) => {
      const index = records.findIndex((record) => record.taskId === taskId);
      const current = records[index];
      if (!current) throw new TaskNotFoundError(taskId);
      const next = applyPatch(current, typeof patch === "function" ? patch(current) : patch, {
        now: this.now(),
        ...(options.resume !== undefined && { resume: options.resume }),
        ...(options.reclaim !== undefined && { reclaim: options.reclaim }),
      });
      if (next === current) return { next: undefined, value: current };
      const updated = freezeRecord(next);
      return { next: records.with(index, updated), value: updated };
    });
  }

  async list(query: TaskListQuery = {}): Promise<TaskRecord[]> {
    checkListQuery(query);
    const keys = await this.sessionKeys(query);
    const loaded = await this.loadMany(keys);
    const all: TaskRecord[] = [];
    for (const entry of loaded) {
      if (entry === undefined) continue;
      if (entry.error === undefined) {
        for (const record of entry.records ?? []) all.push(record);
        continue;
      }
      if (!query.onUnreadable) throw entry.error;
      query.onUnreadable(entry.error);
    }
    return selectTasks(all, query);
  }

  async requestCancel(taskId: string): Promise<TaskRecord> {
    const [record] = await this.patchMany([taskId], cancelMark);
    return record ?? (await this.get(taskId))!;
  }

  async sendMessage(taskId: string, message: TaskMessage): Promise<TaskRecord> {
    const { checkMessage } = await recordRules();
    const [record] = await this.patchMany([taskId], messageMark(checkMessage(taskId, message)));
    return record ?? (await this.get(taskId))!;
  }

  heartbeat(taskIds: readonly string[]): Promise<TaskRecord[]> {
    return this.patchMany(taskIds, heartbeatMark(this.now().toISOString()));
  }

  markDelivered(taskIds: readonly string[]): Promise<TaskRecord[]> {
    return this.patchMany(taskIds, deliveredMark(this.now().toISOString()));
  }

  watch(listener: (change: TaskChange) => void): () => void {
    return this.watcher.add(listener);
  }

  /** Closes the connections (the store's and its watch's); the store takes no call after it. */
  async close(): Promise<void> {
    await this.watcher.close();
    await this.client.quit().catch(() => this.client.disconnect());
  }

  /**
   * Applies `change` to each named record, one write per session; returns the records it changed.
   * Every id is resolved first, so an unknown id fails before anything is written.
   */
  private async patchMany(taskIds: readonly string[], change: RecordMark): Promise<TaskRecord[]> {
    const bySession = new Map<string, Set<string>>();
    for (const taskId of taskIds) {
      const key = await this.require(taskId);
      bySession.set(key, (bySession.get(key) ?? new Set()).add(taskId));
    }
    const changed: TaskRecord[] = [];
    for (const [key, ids] of bySession) {
      const mine = await this.writes.mutate(key, (records) => {
        const touched: TaskRecord[] = [];
        const next = records.map((record) => {
          const updated = ids.has(record.taskId) ? change(record) : undefined;
          if (!updated) return record;
          touched.push(freezeRecord(updated));
          return touched.at(-1)!;
        });
        return { next: touched.length > 0 ? next : undefined, value: touched };
      });
      changed.push(...mine);
    }
    return changed;
  }

  /** A session's records (frozen), through the cache; `undefined` when it does not exist. */
  private async load(key: string): Promise<readonly TaskRecord[] | undefined> {
    const cached = this.cache.get(key);
    const reply = await this.command(() => loadSession(this.client, key, cached?.rev ?? ""));
    const entry = await this.remember(key, reply);
    if (entry?.error) throw entry.error;
    return entry?.records;
  }

  /** `load` of many sessions in one round trip; unreadable ones carry their error. */
  private async loadMany(keys: readonly string[]): Promise<Array<Cached | undefined>> {
    const replies = await this.command(() =>
      loadSessions(
        this.client,
        keys.map((key) => ({ key, rev: this.cache.get(key)?.rev ?? "" })),
      ),
    );
    return Promise.all(keys.map((key, i) => this.remember(key, replies[i] ?? null)));
  }

  private async remember(key: string, reply: LoadReply): Promise<Cached | undefined> {
    if (reply === null) {
      this.cache.delete(key);
      return undefined;
    }
    const cached = this.cache.get(key);
    if (reply.length === 1) return cached;
    const [rev, text] = reply;
    if (cached !== undefined && cached.text === text) {
      const entry = { ...cached, rev };
      this.cache.set(key, entry);
      return entry;
    }
    let entry: Cached;
    try {
      const records = (await parseTaskFile(text, this.locationOf(key))).map(freezeRecord);
      for (const record of records) this.located.set(record.taskId, key);
      entry = { rev, text, records, error: undefined };
    } catch (error) {
      if (!(error instanceof TaskFileError)) throw error;
      entry = { rev, text, records: undefined, error };
    }
    this.cache.set(key, entry);
    return entry;
  }

  private async require(taskId: string): Promise<string> {
    const key = await this.locate(taskId);
    if (!key) throw new TaskNotFoundError(taskId);
    return key;
  }

  /**
   * The session key holding `taskId`: what this store saw, else the index, else a scan of every
   * session (one written without the store is in no index). If the id is in no readable session but
   * one is unreadable, that one's error is thrown: the task may be in it, and "not found" would lie.
   */
  private async locate(taskId: string): Promise<string | undefined> {
    checkId("taskId", taskId);
    const known = this.located.get(taskId);
    if (known !== undefined) return known;
    const indexed = await this.command(() => this.client.hget(this.keys.index, taskId));
    if (indexed !== null) {
      this.located.set(taskId, indexed);
      return indexed;
    }
    const keys = await this.sessionKeys({});
    let unreadable: TaskFileError | undefined;
    for (const [i, entry] of (await this.loadMany(keys)).entries()) {
      if (entry?.error) unreadable ??= entry.error;
      else if (entry?.records?.some((record) => record.taskId === taskId)) return keys[i];
    }
    if (unreadable) throw unreadable;
    return undefined;
  }

  /** The session keys in scope, sorted. */
  private async sessionKeys(scope: Pick<TaskListQuery, "parentAgentId" | "parentSessionId">) {
    if (scope.parentAgentId !== undefined) checkId("parentAgentId", scope.parentAgentId);
    if (scope.parentSessionId !== undefined) checkId("parentSessionId", scope.parentSessionId);
    const members = await this.command(() => this.client.smembers(this.keys.sessions));
    return members
      .filter((key) => {
        const session = this.keys.parse(key);
        if (session === undefined) return false;
        if (scope.parentAgentId !== undefined && session.parentAgentId !== scope.parentAgentId) return false;
        return scope.parentSessionId === undefined || session.parentSessionId === scope.parentSessionId;
      })
      .sort();
  }

  private locationOf(key: string): string {
    return `${this.target.label} key ${key}`;
  }

  private command<T>(run: () => Promise<T>): Promise<T> {
    return redisCommand(this.target, run);
  }
}
