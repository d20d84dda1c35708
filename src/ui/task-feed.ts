import type { TaskFileError } from "../tasks/task-errors.ts";
import type { TaskRecord } from "../tasks/task-record.ts";
import type { TaskChange, TaskStore } from "../tasks/task-store.ts";
import { recordsTree } from "../tree/records-tree.ts";
import { type NodeRow, nodeRows } from "./node-rows.ts";

/** What a page hears: the rows that changed or went, and their order when it changed. */
export interface FeedUpdate {
  changed: NodeRow[];
  removed: string[];
  /** Every row's key in order, when it is not the order sent before. */
  order?: string[];
}

/** Past this many changed ids at once, one listing is cheaper than a read of each. */
const RELIST_AT = 64;
/** A store that cannot push its changes is read this often. */
const POLL_MS = 1_000;

/**
 * The store's tasks as rows of the tree, kept current from the store's `watch()`: each change reads
 * the records it names (a `resync`, or a change of many, reads the whole list once), folds every record
 * into the tree again (`recordsTree`, a few milliseconds for thousands) and tells the pages which rows
 * changed. A page that joins gets `snapshot()`.
 */
export class TaskFeed {
  private readonly store: TaskStore;
  private readonly warn: (error: TaskFileError) => void;
  private readonly records = new Map<string, TaskRecord>();
  private rows = new Map<string, NodeRow>();
  private rowText = new Map<string, string>();
  private order: string[] = [];
  private readonly listeners = new Set<(update: FeedUpdate) => void>();
  private pending = new Set<string>();
  private relist = false;
  private reading: Promise<void> | undefined;
  private stopWatch: (() => void) | undefined;
  private timer: NodeJS.Timeout | undefined;

  constructor(store: TaskStore, warn: (error: TaskFileError) => void) {
    this.store = store;
    this.warn = warn;
  }

  /** Reads every record once, then follows the store. */
  async start(): Promise<void> {
    // Watch first, so no change between the listing and the watch is lost.
    this.stopWatch = this.store.watch?.((change) => this.heard(change));
    if (this.stopWatch === undefined) {
      this.timer = setInterval(() => this.heard({ kind: "resync" }), POLL_MS);
      this.timer.unref();
    }
    await this.readAll();
    this.rebuild();
  }

  stop(): void {
    this.stopWatch?.();
    clearInterval(this.timer);
    this.listeners.clear();
  }

  snapshot(): { rows: NodeRow[]; order: string[] } {
    return { rows: this.order.map((key) => this.rows.get(key)!), order: [...this.order] };
  }

  subscribe(listener: (update: FeedUpdate) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The record behind a row, as last read. */
  record(taskId: string): TaskRecord | undefined {
    return this.records.get(taskId);
  }

  /** Reads these ids again now (after this process changed them), without waiting for the watch. */
  refresh(taskIds: readonly string[]): Promise<void> {
    this.heard({ kind: "changed", taskIds });
    return this.reading ?? Promise.resolve();
  }

  private heard(change: TaskChange): void {
    if (change.kind === "resync" || change.taskIds.length >= RELIST_AT) this.relist = true;
    else for (const id of change.taskIds) this.pending.add(id);
    this.reading ??= this.drain().finally(() => {
      this.reading = undefined;
    });
  }

  /** Reads what was heard, one batch after another, and rebuilds after each batch. */
  private async drain(): Promise<void> {
    while (this.relist || this.pending.size > 0) {
      const relist = this.relist;
      const ids = [...this.pending];
      this.relist = false;
      this.pending = new Set();
      try {
        if (relist) await this.readAll();
        else
          await Promise.all(
            ids.map(async (id) => {
              const record = await this.store.get(id);
              if (record === undefined) this.records.delete(id);
              else this.records.set(id, record);
            }),
          );
      } catch {
        // A file unreadable now (or Redis away): read everything with the next change.
        this.relist = true;
        return;
      }
      this.rebuild();
    }
  }

  private async readAll(): Promise<void> {
    const all = await this.store.list({ onUnreadable: this.warn });
    this.records.clear();
    for (const record of all) this.records.set(record.taskId, record);
  }

  private rebuild(): void {
    const rows = nodeRows(recordsTree([...this.records.values()]));
    const next = new Map(rows.map((row) => [row.key, row]));
    const nextText = new Map(rows.map((row) => [row.key, JSON.stringify(row)]));
    const changed = rows.filter((row) => this.rowText.get(row.key) !== nextText.get(row.key));
    const removed = this.order.filter((key) => !next.has(key));
    const order = rows.map((row) => row.key);
    const reordered = order.length !== this.order.length || order.some((key, i) => key !== this.order[i]);
    this.rows = next;
    this.rowText = nextText;
    this.order = order;
    if (changed.length === 0 && removed.length === 0 && !reordered) return;
    const update: FeedUpdate = { changed, removed, ...(reordered ? { order } : {}) };
    for (const listener of [...this.listeners]) listener(update);
  }
}
