import { closeSync, openSync, writeSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { z } from "zod";
import { ensureStateDir, stateDir } from "../state/state-dir.ts";
import type { RunJournals } from "../tasks/task-store.ts";
import { errorMessage } from "../text/error-message.ts";
import { isPosition, mayFeed } from "./replay-position.ts";
import { WorkflowInputError } from "./workflow-errors.ts";

/** `.agentry/workflow-runs/`: one journal per run id. */
export function workflowRunsDir(workspace: string): string {
  return join(stateDir(workspace), "workflow-runs");
}

/** 2: positions by the script's structure (replay-position.ts); 1: numbers, the order of the calls. */
const JOURNAL_VERSION = 2;

/** What a run was started with, so `--resume` can run it again without the file. */
const runLine = z.object({
  type: z.literal("run"),
  version: z.union([z.literal(1), z.literal(JOURNAL_VERSION)]),
  name: z.string(),
  origin: z.string(),
  typescript: z.boolean(),
  source: z.string(),
  args: z.unknown(),
});
const position = z.union([
  z.number().int().min(0).transform(String),
  z.string().refine(isPosition, "not a replay position"),
]);
const callLine = z.object({ type: z.literal("call"), position, key: z.string() });
const resultLine = z.object({
  type: z.literal("result"),
  position,
  key: z.string(),
  value: z.unknown(),
  taskId: z.string().optional(),
});
const journalLine = z.discriminatedUnion("type", [runLine, callLine, resultLine]);

export type RunHeader = Omit<z.output<typeof runLine>, "type" | "version">;

interface Entry {
  key: string;
  done: boolean;
  value?: unknown;
}

/** What a call at a position does on this run. */
export type ReplayDecision = { kind: "replay"; value: unknown } | { kind: "run" };

/**
 * The positional cache of a workflow run: every `agent()` call is written when it starts (its position
 * in the script's structure — replay-position.ts — and the key of its prompt and options) and when it
 * has a result. A resumed run replays a call whose position holds the same key and a result, unless a
 * call that may have fed it (before it in its scope, or an earlier stage of its pipeline item) changed
 * its key: the script was edited there, so what follows may differ. A call that never finished runs
 * again without changing that. A result is stored before its value reaches the script (`finished`
 * resolves then), so a killed process loses at most the calls it was running.
 *
 * Where it is kept: with the run's records when the store keeps journals (`TaskStore.journals`: the
 * fleet's Redis, so a run is resumed from any machine with `--store`), else in a file of the workspace
 * (`.agentry/workflow-runs/<run-id>.jsonl`, one `write` per line to the file kept open for the run).
 */
export class ReplayJournal {
  /** Where it is, for messages: its file, or the store. */
  readonly where: string;
  private readonly previous: Map<string, Entry>;
  /** The positions of this run whose key differs from the journal's: what they may feed runs again. */
  private readonly changed: string[] = [];
  private readonly sink: JournalSink;

  private constructor(sink: JournalSink, previous: Map<string, Entry>) {
    this.where = sink.where;
    this.sink = sink;
    this.previous = previous;
  }

  /** A new run's journal, starting with its header. */
  static create(workspace: string, runId: string, header: RunHeader, journals?: RunJournals): ReplayJournal {
    const sink = journals === undefined ? fileSink(workspace, runId, true) : storeSink(journals, runId);
    const journal = new ReplayJournal(sink, new Map());
    journal.write({ type: "run", version: JOURNAL_VERSION, ...header });
    return journal;
  }

  /** The journal of an earlier run, to resume it: its last header and its calls. */
  static async open(
    workspace: string,
    runId: string,
    journals?: RunJournals,
  ): Promise<{ journal: ReplayJournal; header: RunHeader }> {
    const sink = journals === undefined ? fileSink(workspace, runId, false) : storeSink(journals, runId);
    const lines = await sink.read();
    const entries = new Map<string, Entry>();
    let header: RunHeader | undefined;
    for (const line of lines) {
      if (line.trim() === "") continue;
      const parsed = parseLine(line);
      // A torn last line (the process was killed mid-write) or a line of a newer version: skipped, so
      // that call simply runs again.
      if (parsed === undefined) continue;
      if (parsed.type === "run") {
        const { type: _type, version: _version, ...rest } = parsed;
        header = rest;
      } else if (parsed.type === "call") {
        entries.set(parsed.position, { key: parsed.key, done: false });
      } else if (entries.get(parsed.position)?.key === parsed.key) {
        entries.set(parsed.position, { key: parsed.key, done: true, value: parsed.value });
      }
    }
    if (header === undefined) {
      throw new WorkflowInputError(
        `The journal of workflow run ${runId} (${sink.where}) has no header: it cannot be resumed.`,
      );
    }
    return { journal: new ReplayJournal(sink, entries), header };
  }

  /** Appends the header of a resumed run (its script may have been edited). */
  restart(header: RunHeader): void {
    this.write({ type: "run", version: JOURNAL_VERSION, ...header });
  }

  /** Decides a call and records that it was made. */
  call(position: string, key: string): ReplayDecision {
    const before = this.previous.get(position);
    const fed = this.changed.some((changed) => mayFeed(changed, position));
    if (before !== undefined && before.key !== key) this.changed.push(position);
    else if (!fed && before?.done === true) return { kind: "replay", value: before.value };
    this.write({ type: "call", position, key });
    return { kind: "run" };
  }

  /** Records a call's result, for a later resume; resolves once it is stored. */
  finished(position: string, key: string, value: unknown, taskId: string | undefined): Promise<void> {
    this.write({
      type: "result",
      position,
      key,
      value: value ?? null,
      ...(taskId === undefined ? {} : { taskId }),
    });
    return this.sink.stored();
  }

  /** Waits for what was written, and closes its file; a line written after opens it again. */
  close(): Promise<void> {
    return this.sink.close();
  }

  private write(line: z.input<typeof journalLine>): void {
    this.sink.write(JSON.stringify(line));
  }
}

/** Where a journal's lines go, in order, and where an earlier run's are read from. */
interface JournalSink {
  readonly where: string;
  write(line: string): void;
  /** Resolves once every line written so far is stored; rejects when one could not be. */
  stored(): Promise<void>;
  read(): Promise<string[]>;
  close(): Promise<void>;
}

/**
 * The workspace's file. Opened once, not per line (an open and a close per line cost more than the
 * write): a run writes two lines per agent call, in bursts when a stage of many items ends at once. A
 * line is on disk when `write` returns.
 */
function fileSink(workspace: string, runId: string, creating: boolean): JournalSink {
  const dir = workflowRunsDir(workspace);
  if (creating) ensureStateDir(workspace, dir);
  const path = join(dir, `${runId}.jsonl`);
  let fd: number | undefined;
  return {
    where: path,
    write(line) {
      fd ??= openSync(path, "a");
      const bytes = Buffer.from(`${line}\n`);
      for (let done = 0; done < bytes.length; ) done += writeSync(fd, bytes, done);
    },
    stored: async () => {},
    async read() {
      try {
        return (await readFile(path, "utf8")).split("\n");
      } catch (error) {
        const missing = error instanceof Error && "code" in error && error.code === "ENOENT";
        throw new WorkflowInputError(
          missing
            ? `No workflow run ${runId} to resume in this workspace (no ${path}): agentry tasks list shows the runs.`
            : `Cannot read the journal of workflow run ${runId} (${path}): ${errorMessage(error)}`,
        );
      }
    },
    async close() {
      if (fd === undefined) return;
      closeSync(fd);
      fd = undefined;
    },
  };
}

/** The store's journals: lines appended in order, each stored before the next is sent. */
function storeSink(journals: RunJournals, runId: string): JournalSink {
  let pending: string[] = [];
  let chain: Promise<void> = Promise.resolve();
  const flush = () => {
    const lines = pending;
    pending = [];
    if (lines.length > 0) chain = chain.then(() => journals.append(runId, lines));
    return chain;
  };
  return {
    where: "the task store",
    write(line) {
      pending.push(line);
      queueMicrotask(() => void flush().catch(() => {}));
    },
    stored: () => flush(),
    async read() {
      const lines = await journals.read(runId);
      if (lines === undefined)
        throw new WorkflowInputError(
          `No workflow run ${runId} to resume in the task store (its journal is not there): agentry tasks list --store … shows the runs.`,
        );
      return lines;
    },
    close: () => flush(),
  };
}

function parseLine(line: string): z.infer<typeof journalLine> | undefined {
  try {
    const parsed = journalLine.safeParse(JSON.parse(line));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}
