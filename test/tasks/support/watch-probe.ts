import { readdirSync, readFileSync, statSync } from "node:fs";
import { TaskFileCache } from "../../../src/tasks/stored/task-file-cache.ts";
import type { TaskRecord } from "../../../src/tasks/task-record.ts";
import type { TaskChange } from "../../../src/tasks/task-store.ts";
import { agentsDir, findTaskFiles } from "../../../src/tasks/workspace/workspace-layout.ts";
import type { WorkspaceTaskStore } from "../../../src/tasks/workspace/workspace-task-store.ts";
import type { WorkspaceWatch, WorkspaceWatchSource } from "../../../src/tasks/workspace/workspace-watch.ts";
import { waitFor } from "../../support/processes.ts";

/** Long enough that a periodic rescan never comes during a test: only fs events can be heard. */
export const NO_RESCAN = { rescanMs: 3_600_000 };

/**
 * Which of `dirs` this process holds an inotify watch on. Linux lists each watch, with its inode, in
 * `/proc/self/fdinfo/<inotify fd>`; a watcher Node has closed is gone from there at once.
 */
export function watchedDirs(dirs: readonly string[]): string[] {
  const inodes = new Set<bigint>();
  for (const fd of readdirSync("/proc/self/fdinfo")) {
    let info: string;
    try {
      info = readFileSync(`/proc/self/fdinfo/${fd}`, "utf8");
    } catch {
      continue; // closed since the listing
    }
    for (const match of info.matchAll(/^inotify wd:\S+ ino:([0-9a-f]+)/gm))
      inodes.add(BigInt(`0x${match[1]}`));
  }
  return dirs.filter((dir) => inodes.has(statSync(dir, { bigint: true }).ino));
}

/**
 * The store's source for a watch (its files and a cache), counting the watch's scans and loads. `hold()`
 * makes each load, once it has read its file, wait until `release()`: a scan under way, held still.
 */
export class ProbedSource implements WorkspaceWatchSource {
  readonly agentsDir: string;
  /** Scans begun (each lists the files once). */
  scans = 0;
  /** Loads finished. */
  loads = 0;
  /** A scan began while another was held in a load: two scans at once. */
  overlapped = false;
  private readonly workspace: string;
  private readonly cache = new TaskFileCache();
  /** Loads that have read their file and wait for `release()`. */
  waiting = 0;
  private gate: { opened: Promise<void>; open: () => void } | undefined;

  constructor(workspace: string) {
    this.workspace = workspace;
    this.agentsDir = agentsDir(workspace);
  }

  files = (): Promise<string[]> => {
    this.scans++;
    if (this.waiting > 0) this.overlapped = true;
    return findTaskFiles(this.workspace, {});
  };

  load = async (path: string): Promise<readonly TaskRecord[] | undefined> => {
    const records = await this.cache.load(path);
    const gate = this.gate;
    if (gate !== undefined) {
      this.waiting++;
      await gate.opened;
      this.waiting--;
    }
    this.loads++;
    return records;
  };

  hold(): void {
    let open = () => {};
    const opened = new Promise<void>((resolve) => {
      open = resolve;
    });
    this.gate = { opened, open };
  }

  /** Resolves once `count` loads have finished in all. */
  loaded(count: number): Promise<void> {
    return waitFor(() => this.loads >= count, 10_000, `${count} loads`);
  }

  /** Resolves once a load has read its file and waits. */
  held(): Promise<void> {
    return waitFor(() => this.waiting > 0, 10_000, "a scan held in its load");
  }

  release(): void {
    this.gate?.open();
    this.gate = undefined;
  }
}

/**
 * One listener of a watch, or of a store's `watch`: what it heard, and a wait for an id among it (the
 * bound only catches a hang).
 */
export function listenTo(watched: Pick<WorkspaceWatch, "add"> | Pick<WorkspaceTaskStore, "watch">) {
  const heard: TaskChange[] = [];
  const listener = (change: TaskChange) => {
    heard.push(change);
  };
  const stop = "add" in watched ? watched.add(listener) : watched.watch(listener);
  const ids = () => heard.flatMap((change) => (change.kind === "changed" ? change.taskIds : []));
  return {
    heard,
    stop,
    ids,
    /** Resolves once `id` was heard `times` times in all. */
    hears: (id: string, times = 1) =>
      waitFor(() => ids().filter((seen) => seen === id).length >= times, 10_000, `${id} heard ${times}×`),
  };
}

/** Once every one of `dirs` is watched: a write in them from now on is heard. */
export function watching(dirs: readonly string[]): Promise<void> {
  return waitFor(() => watchedDirs(dirs).length === dirs.length, 10_000, `watches on ${dirs.join(", ")}`);
}
