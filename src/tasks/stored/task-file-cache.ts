import { type BigIntStats, closeSync, fstatSync, openSync, readFileSync, statSync } from "node:fs";
import { open, readFile, stat } from "node:fs/promises";
import { TaskFileError } from "../task-errors.ts";
import type { TaskRecord } from "../task-record.ts";
import { parseTaskFile } from "./task-file.ts";

/**
 * Parsed task files, reused while a file is unchanged, plus an index from task id to file so `get`
 * does not scan the workspace. A file is only ever replaced (atomic rename), never edited in place,
 * so its inode, size, mtime and ctime identify its content — except within one tick of the file
 * system's clock, where a second write can keep the same timestamps (and the freed inode can be
 * reused). As in git's "racy clean" rule, an entry read while its file was that young is re-read.
 */
const RACY_MS = 100;

interface Entry {
  key: string;
  racy: boolean;
  /** The file's content, so a re-read that finds the same bytes skips the parse. */
  text: string;
  records: readonly TaskRecord[] | undefined;
  error: TaskFileError | undefined;
}

export class TaskFileCache {
  private readonly files = new Map<string, Entry>();
  private readonly paths = new Map<string, string>();
  /** Reads in progress: loads of a file that arrive while it is being read share that read. */
  private readonly reading = new Map<string, Promise<Entry>>();

  /**
   * The file's records (frozen); `undefined` if it does not exist. Throws `TaskFileError`.
   * Concurrent loads of one file share one read (a thousand children starting at once would
   * otherwise each read and hold the whole file); a write by this process ends the sharing, so a
   * load after it reads the new file.
   *
   * `sync`: stat and read with synchronous calls, for a caller that loads many files and needs them
   * all (`list`). A task file is local and small, read in well under a millisecond, while the async
   * open, fstat, read and close are four thread-pool round trips: a cold `list()` of 100 files spent
   * ~40 ms reading them that way, ~13 ms like this. Single loads stay asynchronous, so a thousand
   * children polling one busy file still share one read instead of blocking for a thousand.
   */
  async load(path: string, options: { sync?: boolean } = {}): Promise<readonly TaskRecord[] | undefined> {
    const sync = options.sync === true;
    const cached = this.files.get(path);
    if (cached && !cached.racy) {
      const info = sync ? statKeySync(path) : await statKey(path);
      if (info?.key === cached.key) return settle(cached);
    }
    let pending = this.reading.get(path);
    if (pending === undefined) {
      const read = this.read(path, sync).finally(() => {
        if (this.reading.get(path) === read) this.reading.delete(path);
      });
      this.reading.set(path, read);
      pending = read;
    }
    return settle(await pending);
  }

  /** The file last seen holding `taskId` (ids never move between files). */
  locate(taskId: string): string | undefined {
    return this.paths.get(taskId);
  }

  /**
   * Records what this process just wrote. The file is re-read next time (the write is young, its
   * stat proves nothing yet), but when it still holds `text` the records are reused unparsed.
   */
  wrote(path: string, records: readonly TaskRecord[], text: string): void {
    this.reading.delete(path);
    this.files.set(path, { key: "", racy: true, text, records, error: undefined });
    for (const record of records) this.paths.set(record.taskId, path);
  }

  private async read(path: string, sync: boolean): Promise<Entry> {
    const file = sync ? readWithKeySync(path) : await readWithKey(path);
    if (file === undefined) {
      this.files.delete(path);
      return { key: "", racy: true, text: "", records: undefined, error: undefined };
    }
    const { text, key, racy } = file;
    // A young file is re-read on every load (see RACY_MS); while it is busy (a parent writing
    // heartbeats for a thousand children) most re-reads find the bytes already parsed.
    const previous = this.files.get(path);
    let entry: Entry;
    if (previous !== undefined && previous.text === text && previous.text !== "") {
      entry = { ...previous, key, racy };
    } else {
      try {
        const records = (await parseTaskFile(text, path)).map(freezeRecord);
        for (const record of records) this.paths.set(record.taskId, path);
        entry = { key, racy, text, records, error: undefined };
      } catch (error) {
        if (!(error instanceof TaskFileError)) throw error;
        entry = { key, racy, text, records: undefined, error };
      }
    }
    this.files.set(path, entry);
    return entry;
  }
}

interface KeyedText {
  text: string;
  /** Identifies exactly the content read: fstat and read go through one descriptor. */
  key: string;
  racy: boolean;
}

/** The file's text and stat key; `undefined` if it does not exist. */
async function readWithKey(path: string): Promise<KeyedText | undefined> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(path, "r");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw new TaskFileError(path, (error as Error).message, { cause: error });
  }
  try {
    const info = await handle.stat({ bigint: true });
    return keyedText(await handle.readFile("utf8"), info);
  } finally {
    await handle.close();
  }
}

/** `readWithKey` with synchronous calls (see `load`'s `sync`). */
function readWithKeySync(path: string): KeyedText | undefined {
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw new TaskFileError(path, (error as Error).message, { cause: error });
  }
  try {
    const info = fstatSync(fd, { bigint: true });
    return keyedText(readFileSync(fd, "utf8"), info);
  } finally {
    closeSync(fd);
  }
}

function keyedText(text: string, info: BigIntStats): KeyedText {
  return { text, key: keyOf(info), racy: Number(info.mtimeMs) > Date.now() - RACY_MS };
}

function settle(entry: Entry): readonly TaskRecord[] | undefined {
  if (entry.error) throw entry.error;
  return entry.records;
}

async function statKey(path: string): Promise<{ key: string } | undefined> {
  try {
    return { key: keyOf(await stat(path, { bigint: true })) };
  } catch {
    return undefined;
  }
}

function statKeySync(path: string): { key: string } | undefined {
  try {
    return { key: keyOf(statSync(path, { bigint: true })) };
  } catch {
    return undefined;
  }
}

function keyOf(info: { ino: bigint; size: bigint; mtimeNs: bigint; ctimeNs: bigint }): string {
  return `${info.ino}:${info.size}:${info.mtimeNs}:${info.ctimeNs}`;
}

/** Records are shared between callers and the cache; freezing makes accidental mutation throw. */
export function freezeRecord(record: TaskRecord): TaskRecord {
  if (record.usage) Object.freeze(record.usage);
  if (record.agentPath) Object.freeze(record.agentPath);
  if (record.activity) Object.freeze(record.activity);
  if (record.inbox) Object.freeze(record.inbox);
  return Object.freeze(record);
}

/** Reads a file outside the cache (under the lock, where the freshest content matters). */
export async function readTaskFileFresh(path: string): Promise<TaskRecord[]> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw new TaskFileError(path, (error as Error).message, { cause: error });
  }
  return (await parseTaskFile(text, path)).map(freezeRecord);
}
