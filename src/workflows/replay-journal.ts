import { closeSync, openSync, writeSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { z } from "zod";
import { ensureStateDir, stateDir } from "../state/state-dir.ts";
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
 * again without changing that. Each line is written (one `write` to the file, kept open in append
 * mode for the run) before the call counts as finished — a result line before its value reaches the
 * script — so a killed process loses at most the calls it was running.
 */
export class ReplayJournal {
  readonly path: string;
  private readonly previous: Map<string, Entry>;
  /** The positions of this run whose key differs from the journal's: what they may feed runs again. */
  private readonly changed: string[] = [];
  /** The journal's file, open for appending from the first line to `close()`. */
  private fd: number | undefined;

  private constructor(path: string, previous: Map<string, Entry>) {
    this.path = path;
    this.previous = previous;
  }

  /** A new run's journal, starting with its header. */
  static create(workspace: string, runId: string, header: RunHeader): ReplayJournal {
    const dir = workflowRunsDir(workspace);
    ensureStateDir(workspace, dir);
    const journal = new ReplayJournal(join(dir, `${runId}.jsonl`), new Map());
    journal.write({ type: "run", version: JOURNAL_VERSION, ...header });
    return journal;
  }

  /** The journal of an earlier run, to resume it: its last header and its calls. */
  static async open(
    workspace: string,
    runId: string,
  ): Promise<{ journal: ReplayJournal; header: RunHeader }> {
    const path = join(workflowRunsDir(workspace), `${runId}.jsonl`);
    let text: string;
    try {
      text = await readFile(path, "utf8");
    } catch (error) {
      const missing = error instanceof Error && "code" in error && error.code === "ENOENT";
      throw new WorkflowInputError(
        missing
          ? `No workflow run ${runId} to resume in this workspace (no ${path}): agentry tasks list shows the runs.`
          : `Cannot read the journal of workflow run ${runId} (${path}): ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    const entries = new Map<string, Entry>();
    let header: RunHeader | undefined;
    for (const line of text.split("\n")) {
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
        `The journal of workflow run ${runId} (${path}) has no header: it cannot be resumed.`,
      );
    }
    return { journal: new ReplayJournal(path, entries), header };
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

  /** Records a call's result, for a later resume. */
  finished(position: string, key: string, value: unknown, taskId: string | undefined): void {
    this.write({
      type: "result",
      position,
      key,
      value: value ?? null,
      ...(taskId === undefined ? {} : { taskId }),
    });
  }

  /** Closes the file; a line written after reopens it. */
  close(): void {
    if (this.fd === undefined) return;
    closeSync(this.fd);
    this.fd = undefined;
  }

  private write(line: z.input<typeof journalLine>): void {
    // Opened once, not per line (an open and a close per line cost more than the write): a run writes
    // two lines per agent call, in bursts when a stage of many items ends at once.
    this.fd ??= openSync(this.path, "a");
    const bytes = Buffer.from(`${JSON.stringify(line)}\n`);
    for (let done = 0; done < bytes.length; ) done += writeSync(this.fd, bytes, done);
  }
}

function parseLine(line: string): z.infer<typeof journalLine> | undefined {
  try {
    const parsed = journalLine.safeParse(JSON.parse(line));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}
