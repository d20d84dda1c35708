import { rm } from "node:fs/promises";
import { dirname } from "node:path";
import { ensureStateDir } from "../../state/state-dir.ts";
import { cancelMark, deliveredMark, heartbeatMark, messageMark, type RecordMark } from "../record-marks.ts";
import { checkListQuery, selectTasks } from "../select-tasks.ts";
import { serializeTaskFile } from "../stored/task-file.ts";
import { freezeRecord, readTaskFileFresh, TaskFileCache } from "../stored/task-file-cache.ts";
import { TaskExistsError, TaskFileError, TaskNotFoundError } from "../task-errors.ts";
import type { NewTaskRecord, TaskMessage, TaskRecord } from "../task-record.ts";
import { isFinished } from "../task-status.ts";
import type { TaskChange, TaskListQuery, TaskStore, TaskUpdate, UpdateOptions } from "../task-store.ts";
import type { FileLockOptions } from "./file-lock.ts";
import { agentsDir, checkId, findTaskFiles, taskFilePath } from "./workspace-layout.ts";
import { WorkspaceWatch } from "./workspace-watch.ts";

// What only writes need — the record rules (which validate with zod), the lock and the atomic write
// (node:crypto) — loads on the first write: a process that only reads, like `agentry tasks list`,
// starts ~90 ms sooner without them.
const recordRules = () => import("../apply-patch.ts");
const fileWrites = () => Promise.all([import("./file-lock.ts"), import("./atomic-write.ts")]);

export interface WorkspaceTaskStoreOptions {
  workspace: string;
  /** The clock for createdAt/updatedAt/deliveredAt (tests pin it). */
  now?: () => Date;
  lock?: Partial<FileLockOptions>;
}

interface PendingChange {
  change: (records: readonly TaskRecord[]) => readonly TaskRecord[] | undefined;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/**
 * The embedded backend: one JSON file per parent session under `.agentry/agents/<parentAgentId>/
 * tasks/`, each write a read-modify-write under that file's lock, replaced atomically. Reads go
 * through a cache that is checked against the file's stat, so other processes' writes are seen.
 */
export class WorkspaceTaskStore implements TaskStore {
  readonly workspace: string;
  private readonly now: () => Date;
  private readonly lockOptions: Partial<FileLockOptions>;
  private readonly cache = new TaskFileCache();
  /** Changes waiting for the next write of each file (see `mutate`). */
  private readonly pending = new Map<string, PendingChange[]>();
  private watcher: WorkspaceWatch | undefined;

  constructor(options: WorkspaceTaskStoreOptions) {
    this.workspace = options.workspace;
    this.now = options.now ?? (() => new Date());
    this.lockOptions = options.lock ?? {};
  }

  async create(input: NewTaskRecord): Promise<TaskRecord> {
    const { newRecord } = await recordRules();
    const record = freezeRecord(newRecord(input, this.now()));
    // Ids are unique across files too; an unreadable file elsewhere must not block creating here.
    const elsewhere = await this.locate(record.taskId).catch((error: unknown) => {
      if (error instanceof TaskFileError) return undefined;
      throw error;
    });
    if (elsewhere) throw new TaskExistsError(record.taskId);
    const path = taskFilePath(this.workspace, record.parentAgentId, record.parentSessionId);
    ensureStateDir(this.workspace, dirname(path));
    await this.mutate(path, (records) => {
      if (records.some((existing) => existing.taskId === record.taskId))
        throw new TaskExistsError(record.taskId);
      return [...records, record];
    });
    return record;
  }

  async get(taskId: string): Promise<TaskRecord | undefined> {
    const path = await this.locate(taskId);
    if (!path) return undefined;
    return (await this.cache.load(path))?.find((record) => record.taskId === taskId);
  }

  async update(taskId: string, patch: TaskUpdate, options: UpdateOptions = {}): Promise<TaskRecord> {
    const path = await this.require(taskId);
    const { applyPatch } = await recordRules();
    let updated: TaskRecord | undefined;
    await this.mutate(path, (records) => {
      const index = records.findIndex((record) => record.taskId === taskId);
      const current = records[index];
      if (!current) throw new TaskNotFoundError(taskId);
      const next = applyPatch(current, typeof patch === "function" ? patch(current) : patch, {
        now: this.now(),
        ...(options.resume !== undefined && { resume: options.resume }),
        ...(options.reclaim !== undefined && { reclaim: options.reclaim }),
      });
      updated = freezeRecord(next);
      return next === current ? undefined : records.with(index, updated);
    });
    return updated!;
  }

  async list(query: TaskListQuery = {}): Promise<TaskRecord[]> {
    checkListQuery(query);
    const files = await findTaskFiles(this.workspace, query);
    // It needs every file before it can answer: read them back to back (see TaskFileCache.load).
    const loaded = await Promise.allSettled(files.map((file) => this.cache.load(file, { sync: true })));
    const all: TaskRecord[] = [];
    for (const outcome of loaded) {
      if (outcome.status === "fulfilled") {
        for (const record of outcome.value ?? []) all.push(record);
        continue;
      }
      const error: unknown = outcome.reason;
      if (!(error instanceof TaskFileError) || !query.onUnreadable) throw error;
      query.onUnreadable(error);
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

  /** Changes by any process, heard through the file system (see `WorkspaceWatch`). */
  watch(listener: (change: TaskChange) => void): () => void {
    this.watcher ??= new WorkspaceWatch({
      agentsDir: agentsDir(this.workspace),
      files: () => findTaskFiles(this.workspace, {}),
      load: (path) => this.cache.load(path),
    });
    return this.watcher.add(listener);
  }

  /**
   * Removes the named records that are finished — re-checked under each file's lock, so a record that
   * runs again meanwhile stays — and deletes a file left with none. Returns the removed records. For
   * `agentry sessions prune` and `tasks prune`; not part of the `TaskStore` contract.
   */
  async removeFinished(taskIds: readonly string[]): Promise<TaskRecord[]> {
    const byFile = new Map<string, Set<string>>();
    for (const taskId of taskIds) {
      const path = await this.locate(taskId);
      if (path !== undefined) byFile.set(path, (byFile.get(path) ?? new Set()).add(taskId));
    }
    const [{ withFileLock }, { writeFileAtomic }] = await fileWrites();
    const removed: TaskRecord[] = [];
    for (const [path, ids] of byFile) {
      await withFileLock(
        path,
        async () => {
          const records = await readTaskFileFresh(path);
          const gone = records.filter((record) => ids.has(record.taskId) && isFinished(record.status));
          if (gone.length === 0) return;
          const kept = records.filter((record) => !gone.includes(record));
          if (kept.length === 0) await rm(path, { force: true });
          else {
            const text = serializeTaskFile(kept);
            await writeFileAtomic(path, text);
            this.cache.wrote(path, kept, text);
          }
          removed.push(...gone);
        },
        this.lockOptions,
      );
    }
    return removed;
  }

  /**
   * Applies `change` to each named record, one locked write per file; returns the records it changed.
   * Every id is resolved first, so an unknown id fails before anything is written.
   */
  private async patchMany(taskIds: readonly string[], change: RecordMark): Promise<TaskRecord[]> {
    const byFile = new Map<string, Set<string>>();
    for (const taskId of taskIds) {
      const path = await this.require(taskId);
      byFile.set(path, (byFile.get(path) ?? new Set()).add(taskId));
    }
    const changed: TaskRecord[] = [];
    for (const [path, ids] of byFile) {
      await this.mutate(path, (records) => {
        let dirty = false;
        const next = records.map((record) => {
          const updated = ids.has(record.taskId) ? change(record) : undefined;
          if (!updated) return record;
          dirty = true;
          changed.push(freezeRecord(updated));
          return changed.at(-1)!;
        });
        return dirty ? next : undefined;
      });
    }
    return changed;
  }

  /**
   * Read-modify-write of one file under its lock. `change` returns the new records, or `undefined`
   * for "nothing to write". A file that cannot be parsed throws before anything is written, so a
   * corrupt file is never replaced (and its records never lost).
   *
   * Group commit: changes to one file that arrive while its write is in flight wait and are applied
   * together, in arrival order, by the next locked write. Each write is an fsync'd replace (~10 ms),
   * so sixteen children starting at once would otherwise queue behind sixteen serial writes (and the
   * lock's polling backoff). A change that throws fails only its own call.
   */
  private mutate(
    path: string,
    change: (records: readonly TaskRecord[]) => readonly TaskRecord[] | undefined,
  ): Promise<void> {
    return new Promise((resolve, reject) => {
      const waiting = this.pending.get(path);
      if (waiting) {
        waiting.push({ change, resolve, reject });
        return;
      }
      this.pending.set(path, [{ change, resolve, reject }]);
      void this.flush(path);
    });
  }

  /** Writes the pending changes of `path`, a batch per locked write, until none are left. */
  private async flush(path: string): Promise<void> {
    for (let batch = this.pending.get(path); batch && batch.length > 0; batch = this.pending.get(path)) {
      this.pending.set(path, []);
      const failures = new Map<PendingChange, unknown>();
      try {
        const [{ withFileLock }, { writeFileAtomic }] = await fileWrites();
        await withFileLock(
          path,
          async () => {
            let records: readonly TaskRecord[] = await readTaskFileFresh(path);
            let dirty = false;
            for (const pending of batch) {
              try {
                const next = pending.change(records);
                if (next) {
                  records = next;
                  dirty = true;
                }
              } catch (error) {
                failures.set(pending, error);
              }
            }
            if (!dirty) return;
            const text = serializeTaskFile(records);
            await writeFileAtomic(path, text);
            this.cache.wrote(path, records, text);
          },
          this.lockOptions,
        );
      } catch (error) {
        for (const pending of batch) if (!failures.has(pending)) failures.set(pending, error);
      }
      for (const pending of batch) {
        if (failures.has(pending)) pending.reject(failures.get(pending));
        else pending.resolve();
      }
    }
    this.pending.delete(path);
  }

  private async require(taskId: string): Promise<string> {
    const path = await this.locate(taskId);
    if (!path) throw new TaskNotFoundError(taskId);
    return path;
  }

  /**
   * The file holding `taskId`: the index first, else a scan of every task file (cheap when cached).
   * If the id is in no readable file but some file is unreadable, that file's error is thrown: the
   * task may be in it, and "not found" would be a lie.
   */
  private async locate(taskId: string): Promise<string | undefined> {
    checkId("taskId", taskId);
    const has = (records: readonly TaskRecord[] | undefined) => !!records?.some((r) => r.taskId === taskId);
    const known = this.cache.locate(taskId);
    if (known && has(await this.cache.load(known).catch(() => undefined))) return known;
    const files = await findTaskFiles(this.workspace, {});
    const loaded = await Promise.allSettled(files.map((file) => this.cache.load(file)));
    let unreadable: TaskFileError | undefined;
    for (const [i, outcome] of loaded.entries()) {
      if (outcome.status === "fulfilled") {
        if (has(outcome.value)) return files[i];
        continue;
      }
      const error: unknown = outcome.reason;
      if (!(error instanceof TaskFileError)) throw error;
      unreadable ??= error;
    }
    if (unreadable) throw unreadable;
    return undefined;
  }
}
