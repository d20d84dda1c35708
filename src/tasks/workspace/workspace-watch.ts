import { type FSWatcher, watch } from "node:fs";
import { readdir } from "node:fs/promises";
import { basename, join } from "node:path";
import type { TaskRecord } from "../task-record.ts";
import type { TaskChange } from "../task-store.ts";

export interface WorkspaceWatchSource {
  /** `<workspace>/.agentry/agents`: the folder whose `<id>/tasks/` folders hold the task files. */
  agentsDir: string;
  /** Every task file now (`findTaskFiles`). */
  files(): Promise<string[]>;
  /** One file's records through the store's cache (`undefined`: gone); throws for an unreadable one. */
  load(path: string): Promise<readonly TaskRecord[] | undefined>;
}

/** The defaults suit a store; tests shorten the rescan to see it, or lengthen it so it cannot hide a missed event. */
export interface WorkspaceWatchTiming {
  settleMs?: number;
  rescanMs?: number;
}

/** Events of one write (temp file, rename, lock removed) arrive together: look once, after them. */
const SETTLE_MS = 10;
/** Where watching a folder is refused (no inotify watches left …), or none exists yet: look this often. */
const RESCAN_MS = 1_000;

/**
 * The workspace store's `watch`: the task files' folders watched with `fs.watch` (not recursive:
 * `agents/` also holds isolated workspaces, whole trees nobody should watch), and each file that
 * changed compared record by record with what it held, so listeners hear the ids whose records
 * changed — as the Redis store's pub/sub tells them. Set up with the first listener, closed with the
 * last; watchers and timers never keep the process alive. Where a folder cannot be watched it falls
 * back to looking every second (a stat per file; only changed files are read).
 */
export class WorkspaceWatch {
  private readonly source: WorkspaceWatchSource;
  private readonly listeners = new Set<(change: TaskChange) => void>();
  private readonly watchers = new Map<string, FSWatcher>();
  /** Each file's records as last seen, by id (their JSON, to compare). */
  private readonly known = new Map<string, Map<string, string>>();
  /** The records each file gave last time: the cache gives the same array while a file is unchanged. */
  private readonly loaded = new Map<string, readonly TaskRecord[] | undefined>();
  private baseline: Promise<void> | undefined;
  private settle: NodeJS.Timeout | undefined;
  private rescan: NodeJS.Timeout | undefined;
  private scanning: Promise<void> | undefined;
  private again = false;
  /** The system refused a watch: keep looking every second for as long as anyone listens. */
  private refused = false;
  /** Counts closes: a look still under way when its listeners went is dropped (see scan). */
  private generation = 0;
  private readonly settleMs: number;
  private readonly rescanMs: number;

  constructor(source: WorkspaceWatchSource, timing: WorkspaceWatchTiming = {}) {
    this.source = source;
    this.settleMs = timing.settleMs ?? SETTLE_MS;
    this.rescanMs = timing.rescanMs ?? RESCAN_MS;
  }

  add(listener: (change: TaskChange) => void): () => void {
    this.listeners.add(listener);
    if (this.baseline === undefined) this.start();
    return () => {
      this.listeners.delete(listener);
      if (this.listeners.size === 0) this.close();
    };
  }

  close(): void {
    this.generation++;
    for (const watcher of this.watchers.values()) watcher.close();
    this.watchers.clear();
    clearTimeout(this.settle);
    clearInterval(this.rescan);
    this.settle = undefined;
    this.rescan = undefined;
    this.baseline = undefined;
    this.refused = false;
    this.known.clear();
    this.loaded.clear();
  }

  private start(): void {
    this.baseline = this.scan(false).catch(() => {});
    this.watchFolders();
  }

  /** Watches `agents/`, each `agents/<id>/` (a `tasks/` may appear) and each `agents/<id>/tasks/`. */
  private watchFolders(): void {
    const { agentsDir } = this.source;
    if (!this.watchFolder(agentsDir)) {
      this.fallBack();
      return;
    }
    void readdir(agentsDir, { withFileTypes: true })
      .then((entries) => {
        for (const entry of entries) {
          if (!entry.isDirectory()) continue;
          this.watchFolder(join(agentsDir, entry.name));
          this.watchFolder(join(agentsDir, entry.name, "tasks"));
        }
      })
      .catch(() => {});
  }

  /** False when the folder cannot be watched (missing, or the system refuses). */
  private watchFolder(dir: string): boolean {
    if (this.baseline === undefined) return false;
    if (this.watchers.has(dir)) return true;
    try {
      const watcher = watch(dir, { persistent: false }, (_, name) => {
        // The folder itself went (its own name is reported): this watch hears nothing more, even once
        // a folder of that name is made again. Dropped, it is watched anew by the look this change
        // starts, if it is there by then, or by a later one.
        if (name === basename(dir)) this.unwatch(dir, watcher);
        this.changed();
      });
      watcher.on("error", () => {
        this.refused = true;
        this.unwatch(dir, watcher);
        this.fallBack();
        this.changed();
      });
      this.watchers.set(dir, watcher);
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") {
        this.refused = true;
        this.fallBack();
      }
      return false;
    }
  }

  private unwatch(dir: string, watcher: FSWatcher): void {
    watcher.close();
    if (this.watchers.get(dir) === watcher) this.watchers.delete(dir);
  }

  private fallBack(): void {
    if (this.rescan !== undefined || this.baseline === undefined) return;
    this.rescan = setInterval(() => {
      this.watchFolders();
      this.changed();
      // The folder was only missing, and is watched now: its events will do.
      if (!this.refused && this.watchers.has(this.source.agentsDir)) {
        clearInterval(this.rescan);
        this.rescan = undefined;
      }
    }, this.rescanMs);
    this.rescan.unref();
  }

  private changed(): void {
    if (this.settle !== undefined || this.baseline === undefined) return;
    this.settle = setTimeout(() => {
      this.settle = undefined;
      void this.scanNow();
    }, this.settleMs);
    this.settle.unref();
  }

  /** One scan at a time; a change heard during one is looked at by the next. */
  private async scanNow(): Promise<void> {
    if (this.scanning !== undefined) {
      this.again = true;
      return;
    }
    this.scanning = (async () => {
      await this.baseline;
      this.watchFolders();
      await this.scan(true).catch(() => {
        // A listing that failed now is retried with the next change; nothing is reported meanwhile.
      });
    })();
    await this.scanning;
    this.scanning = undefined;
    if (this.again) {
      this.again = false;
      await this.scanNow();
    }
  }

  /** Compares every file with what it held; `report`: tell the listeners which ids changed. */
  private async scan(report: boolean): Promise<void> {
    // A look begun for listeners that have all gone since belongs to none: closing cleared what the
    // files held, so it would take every record for news and tell the next listeners.
    const generation = this.generation;
    const files = await this.source.files();
    if (generation !== this.generation) return;
    const changed: string[] = [];
    for (const file of files) {
      let records: readonly TaskRecord[] | undefined;
      try {
        records = await this.source.load(file);
      } catch {
        continue; // an unreadable file keeps what it held; the store reports it to whoever reads it
      }
      if (generation !== this.generation) return;
      if (this.loaded.has(file) && this.loaded.get(file) === records) continue;
      this.loaded.set(file, records);
      const before = this.known.get(file);
      const now = new Map((records ?? []).map((record) => [record.taskId, JSON.stringify(record)]));
      for (const [id, text] of now) if (before?.get(id) !== text) changed.push(id);
      for (const id of before?.keys() ?? []) if (!now.has(id)) changed.push(id);
      this.known.set(file, now);
    }
    const present = new Set(files);
    for (const [file, before] of this.known) {
      if (present.has(file)) continue;
      changed.push(...before.keys());
      this.known.delete(file);
      this.loaded.delete(file);
    }
    if (!report || changed.length === 0 || this.baseline === undefined) return;
    const change: TaskChange = { kind: "changed", taskIds: changed };
    for (const listener of [...this.listeners]) listener(change);
  }
}
