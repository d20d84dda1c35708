import { existsSync } from "node:fs";
import { rm, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { AgentryError } from "../../errors/agentry-error.ts";
import { type Message, userText } from "../../model/messages.ts";
import { diskFullError } from "../../state/disk-full.ts";
import { appendLine, ensureStateDir, sessionPath, sessionsDir, stateDir } from "../../state/state-dir.ts";
import { interruptedToolResults, pairToolCalls } from "./repair.ts";
import { InvalidSessionIdError, isValidSessionId, newSessionId } from "./session-id.ts";
import { acquireSessionLock, type SessionLock } from "./session-lock.ts";
import { readTranscript, type Transcript, transcriptHistory } from "./transcript.ts";
import { type BlobWriter, blobWriter, storedForm } from "./transcript-blobs.ts";
import {
  type CompactionRecord,
  type SessionRecord,
  TRANSCRIPT_VERSION,
  type TranscriptHeader,
} from "./transcript-schema.ts";

export interface CreateSessionOptions {
  workspace: string;
  agentName: string;
  /** `provider:model` */
  model: string;
  parentSessionId?: string;
  /** Default: a new sortable id (`newSessionId()`). */
  id?: string;
  /** Default true. False keeps the session in memory only. */
  persist?: boolean;
  /**
   * Default true: hold the session's lock (`.agentry/locks/<id>.lock`) until `close()`, so no other process writes
   * the transcript meanwhile. Memory-only sessions have no lock.
   */
  lock?: boolean;
}

export interface ResumeSessionOptions {
  /** Default true: take the session's lock (see `CreateSessionOptions.lock`); `SessionBusyError` when another process holds it. */
  lock?: boolean;
}

export class SessionNotFoundError extends AgentryError {
  override readonly name = "SessionNotFoundError";
  readonly kind = "user";
  constructor(id: string, workspace: string) {
    super(
      `Session "${id}" not found in ${sessionsDir(workspace)}. ` +
        "List the stored sessions with `agentry sessions list` (or `listSessions(workspace)` in code).",
    );
  }
}

export class SessionExistsError extends AgentryError {
  override readonly name = "SessionExistsError";
  readonly kind = "user";
  constructor(id: string, path: string) {
    super(`Session "${id}" already exists (${path}); resume it with Session.resume instead of creating it.`);
  }
}

/**
 * One conversation: its messages in memory and, when persisted, an append-only JSONL transcript at
 * `<workspace>/.agentry/sessions/<id>.jsonl`. Only the loop appends; readers may run concurrently.
 */
export class Session {
  readonly id: string;
  readonly parentSessionId: string | undefined;
  readonly agentName: string;
  readonly model: string;
  readonly workspace: string;
  readonly createdAt: string;
  readonly messages: Message[];
  /** Undefined for an in-memory session. */
  readonly transcriptPath: string | undefined;
  /** Problems met while reading a resumed transcript (e.g. a torn last line), for the caller to show. */
  readonly warnings: readonly string[];
  private lock: SessionLock | undefined;
  private measuredIndex: number;
  private readonly blobs: BlobWriter;

  private constructor(init: {
    header: TranscriptHeader;
    workspace: string;
    messages: Message[];
    transcriptPath: string | undefined;
    warnings?: string[];
    lock?: SessionLock | undefined;
    measuredFrom?: number;
  }) {
    this.id = init.header.sessionId;
    this.parentSessionId = init.header.parentSessionId;
    this.agentName = init.header.agentName;
    this.model = init.header.model;
    this.createdAt = init.header.createdAt;
    this.workspace = init.workspace;
    this.messages = init.messages;
    this.transcriptPath = init.transcriptPath;
    this.warnings = init.warnings ?? [];
    this.lock = init.lock;
    this.measuredIndex = init.measuredFrom ?? 0;
    this.blobs = blobWriter(init.workspace);
  }

  /**
   * The first message whose reported usage measures the history as it is now (`transcriptHistory`):
   * past the summary and the messages the last compaction kept. 0 when nothing was compacted.
   */
  get measuredFrom(): number {
    return this.measuredIndex;
  }

  /** Creates a session and, unless `persist: false`, writes its header line. */
  static async create(options: CreateSessionOptions): Promise<Session> {
    const id = options.id ?? newSessionId();
    if (!isValidSessionId(id)) throw new InvalidSessionIdError(id);
    const header: TranscriptHeader = {
      type: "header",
      version: TRANSCRIPT_VERSION,
      sessionId: id,
      agentName: options.agentName,
      model: options.model,
      cwd: options.workspace,
      createdAt: new Date().toISOString(),
    };
    if (options.parentSessionId !== undefined) header.parentSessionId = options.parentSessionId;
    if (options.persist === false) {
      return new Session({ header, workspace: options.workspace, messages: [], transcriptPath: undefined });
    }
    const path = sessionPath(options.workspace, id);
    ensureStateDir(options.workspace, sessionsDir(options.workspace));
    const lock =
      options.lock === false ? undefined : acquireSessionLock(id, lockPathOf(options.workspace, id));
    // Asynchronous, unlike later appends: creating a file is the slow part of a write, and a parent
    // starting many children at once must not stall its event loop; "wx" refuses an existing file.
    try {
      await writeFile(path, `${JSON.stringify(header)}\n`, { flag: "wx" });
    } catch (error) {
      lock?.release();
      if ((error as NodeJS.ErrnoException).code === "EEXIST") throw new SessionExistsError(id, path);
      const full = diskFullError(error, path);
      // A header cut short is no transcript: the file goes, as if the session was never created.
      if (full !== undefined) await rm(path, { force: true });
      throw full ?? error;
    }
    return new Session({ header, workspace: options.workspace, messages: [], transcriptPath: path, lock });
  }

  /**
   * Loads a stored session so a run can continue it, and takes its lock (`SessionBusyError` when
   * another live process holds it). Throws `TranscriptFormatError` for a file it cannot read.
   */
  static async resume(workspace: string, id: string, options: ResumeSessionOptions = {}): Promise<Session> {
    if (!isValidSessionId(id)) throw new InvalidSessionIdError(id);
    const path = sessionPath(workspace, id);
    if (!existsSync(path)) throw new SessionNotFoundError(id, workspace);
    const lock = options.lock === false ? undefined : acquireSessionLock(id, lockPathOf(workspace, id));
    let transcript: Transcript;
    try {
      transcript = await readTranscript(path);
    } catch (error) {
      lock?.release();
      throw error;
    }
    const { messages: stored, measuredFrom } = transcriptHistory(transcript);
    const session = new Session({
      measuredFrom,
      lock,
      header: transcript.header,
      workspace,
      // Whatever a crash or an older agentry left, the history a run continues is one providers accept.
      messages: [...pairToolCalls(stored)],
      transcriptPath: path,
      warnings: transcript.warnings,
    });
    // The common crash (killed while tools ran) is closed in the file too, before anything follows it.
    const interrupted = interruptedToolResults(stored);
    if (interrupted) session.write({ type: "message", message: interrupted, at: new Date().toISOString() });
    return session;
  }

  /** Adds a complete message and persists it as one line (its images as blobs beside it: `transcript-blobs.ts`). */
  async append(message: Message): Promise<void> {
    if (this.transcriptPath) {
      this.lock?.assertHeld();
      this.write({ type: "message", message: storedForm(message, this.blobs), at: new Date().toISOString() });
    }
    this.messages.push(message);
  }

  /**
   * Replaces the first `record.replaced` messages by one user message holding `record.summary`, and
   * records it as a `compaction` entry: the file keeps every message, and a resumed session rebuilds
   * this form from the entry. `record.kept` must be the messages left after them.
   */
  async compact(record: CompactionRecord): Promise<void> {
    if (record.replaced < 1 || record.replaced + record.kept !== this.messages.length) {
      throw new Error(
        `a compaction must replace at least one message and keep the rest: ${record.replaced} replaced + ${record.kept} kept ≠ ${this.messages.length} messages`,
      );
    }
    this.write({ ...record, type: "compaction", at: new Date().toISOString() });
    this.messages.splice(0, record.replaced, userText(record.summary));
    this.measuredIndex = this.messages.length;
  }

  /** Persists a non-message entry (an outcome, an abort, an error); in-memory sessions ignore it. */
  async record(entry: SessionRecord): Promise<void> {
    this.write({ ...entry, at: new Date().toISOString() });
  }

  /** Releases the session's lock; the session writes nothing after it. Idempotent. */
  close(): void {
    this.lock?.release();
  }

  private write(line: Record<string, unknown>): void {
    if (!this.transcriptPath) return;
    this.lock?.assertHeld();
    // Whole lines only: a write the disk could not take is cut back, and a line torn by a killed
    // writer before is ended first (appendLine).
    appendLine(this.transcriptPath, JSON.stringify(line));
  }
}

/** `.agentry/locks/<id>.lock`: apart from the transcripts, so `sessions/` holds only sessions. */
export function sessionLockPath(workspace: string, id: string): string {
  return join(stateDir(workspace), "locks", `${id}.lock`);
}

function lockPathOf(workspace: string, id: string): string {
  const path = sessionLockPath(workspace, id);
  ensureStateDir(workspace, dirname(path));
  return path;
}
