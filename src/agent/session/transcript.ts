import { readdir, readFile, stat } from "node:fs/promises";
import { dirname, join } from "node:path";
import type { OutcomeStatus } from "../../contracts/outcome.ts";
import { type Message, userText } from "../../model/messages.ts";
import { sessionsDir } from "../../state/state-dir.ts";
import { errorMessage } from "../../text/error-message.ts";
import { type BlobReader, blobReader, loadedForm } from "./transcript-blobs.ts";
import {
  migrateTranscript,
  type RawLine,
  TRANSCRIPT_MIGRATIONS,
  TranscriptFormatError,
  type TranscriptMigration,
} from "./transcript-migrations.ts";
import {
  headerSchema,
  storedEntrySchema,
  TRANSCRIPT_VERSION,
  type TranscriptEntry,
  type TranscriptHeader,
} from "./transcript-schema.ts";

export { TranscriptFormatError };

export interface Transcript {
  header: TranscriptHeader;
  entries: TranscriptEntry[];
  /** Lines that were skipped (a torn last line, an unreadable entry), one sentence each. */
  warnings: string[];
  /** False when the file does not end with a newline (the last write was cut); the next append must start a new line. */
  endsWithNewline: boolean;
}

export interface SessionSummary {
  id: string;
  parentSessionId?: string;
  agentName: string;
  model: string;
  createdAt: string;
  /** Time of the last entry (the header's time when there is none). */
  updatedAt: string;
  messageCount: number;
  lastOutcome?: OutcomeStatus;
  /** The first user message, on one line and shortened. */
  title: string;
}

/**
 * Reads a transcript file, upgrading older format versions, with its images loaded from the blobs of
 * the `.agentry/` it lives in. Throws `TranscriptFormatError` when the header is unusable.
 */
export async function readTranscript(path: string): Promise<Transcript> {
  const read = blobReader(join(dirname(dirname(path)), "blobs"));
  return parseTranscript(await readFile(path, "utf8"), path, TRANSCRIPT_MIGRATIONS, read);
}

/**
 * Parses transcript text (see `readTranscript`); `migrations` is replaceable for tests of the upgrade
 * path. `blobs` loads images stored by reference; without it, each becomes a line of text saying so.
 */
export function parseTranscript(
  text: string,
  source = "transcript",
  migrations: Readonly<Record<number, TranscriptMigration>> = TRANSCRIPT_MIGRATIONS,
  blobs?: BlobReader,
): Transcript {
  const warnings: string[] = [];
  const endsWithNewline = text.length === 0 || text.endsWith("\n");
  const rawLines = text.split("\n");
  if (endsWithNewline) rawLines.pop();

  const parsed: Array<{ line: RawLine; lineNumber: number }> = [];
  rawLines.forEach((raw, index) => {
    if (raw.trim() === "") return;
    const isLast = index === rawLines.length - 1;
    const value = parseJsonObject(raw);
    if (value) parsed.push({ line: value, lineNumber: index + 1 });
    else if (isLast && !endsWithNewline)
      warnings.push(`${source}: the last line is incomplete (the writer was probably killed); skipped it.`);
    else warnings.push(`${source}: line ${index + 1} is not valid JSON; skipped it.`);
  });

  if (text.trim() === "") {
    throw new TranscriptFormatError(
      `${source} is empty: the session was never written (its process was probably killed as it started).`,
    );
  }
  const first = parsed[0];
  if (first?.line.type !== "header" || typeof first.line.version !== "number") {
    throw new TranscriptFormatError(
      `${source} is not an agentry transcript: its first line is not a header.`,
    );
  }
  const version = first.line.version;
  if (version > TRANSCRIPT_VERSION) {
    throw new TranscriptFormatError(
      `${source} uses transcript format v${version}, but this agentry reads up to v${TRANSCRIPT_VERSION}; upgrade agentry.`,
    );
  }
  const lineNumbers = parsed.map((p) => p.lineNumber);
  const lines = migrateTranscript(
    parsed.map((p) => p.line),
    version,
    TRANSCRIPT_VERSION,
    migrations,
  );

  const header = headerSchema.safeParse(lines[0]);
  if (!header.success) {
    throw new TranscriptFormatError(`${source} has an invalid header: ${header.error.issues[0]?.message}`);
  }
  const entries: TranscriptEntry[] = [];
  lines.slice(1).forEach((line, index) => {
    const entry = storedEntrySchema.safeParse(line);
    if (entry.success)
      entries.push(
        entry.data.type === "message"
          ? { ...entry.data, message: loadedForm(entry.data.message, blobs) }
          : entry.data,
      );
    else {
      // Line numbers refer to the file as written; migrations may merge or split lines.
      const where = version === TRANSCRIPT_VERSION ? `line ${lineNumbers[index + 1]}` : `entry ${index + 1}`;
      warnings.push(`${source}: ${where} is not a valid entry (${describeIssue(entry.error)}); skipped it.`);
    }
  });
  return { header: header.data, entries, warnings, endsWithNewline };
}

/** Every message of a transcript, in order: the full history, compacted parts included. */
export function transcriptMessages(transcript: Transcript): Message[] {
  return transcript.entries.flatMap((entry) => (entry.type === "message" ? [entry.message] : []));
}

/** The history a session continues: what the model saw last. */
export interface TranscriptHistory {
  /** The messages after the last compaction's summary took the place of the older ones. */
  messages: Message[];
  /**
   * The first message whose recorded usage measures this history: past the summary and the messages
   * kept with it, whose usage was reported for the longer history before the compaction. 0 without one.
   */
  measuredFrom: number;
}

/** Replays a transcript's messages and compactions into the compacted form a resumed run continues. */
export function transcriptHistory(transcript: Transcript): TranscriptHistory {
  let messages: Message[] = [];
  let measuredFrom = 0;
  for (const entry of transcript.entries) {
    if (entry.type === "message") messages.push(entry.message);
    else if (entry.type === "compaction") {
      const kept = Math.min(entry.kept, messages.length);
      messages = [userText(entry.summary), ...messages.slice(messages.length - kept)];
      measuredFrom = messages.length;
    }
  }
  return { messages, measuredFrom };
}

/** A transcript file that cannot be read as a session: empty, without a valid header, or too new. */
export interface DamagedSession {
  /** The file name without `.jsonl`. */
  id: string;
  path: string;
  /** Why it cannot be read, naming the file. */
  problem: string;
  /** The file's modification time. */
  updatedAt: string;
}

export interface ListSessionsOptions {
  /**
   * Called with each transcript file that cannot be read, which the list then leaves out. Without
   * it, such files are left out silently.
   */
  onDamaged?: (damaged: DamagedSession) => void;
}

/** The sessions stored in a workspace, most recently updated first. Damaged files go to `onDamaged`. */
export async function listSessions(
  workspace: string,
  options: ListSessionsOptions = {},
): Promise<SessionSummary[]> {
  const dir = sessionsDir(workspace);
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
  const summaries: SessionSummary[] = [];
  for (const name of names.filter((n) => n.endsWith(".jsonl"))) {
    const path = join(dir, name);
    try {
      summaries.push(summarize(await readTranscript(path)));
    } catch (error) {
      const problem = errorMessage(error);
      const updatedAt = await stat(path).then(
        (info) => info.mtime.toISOString(),
        () => new Date(0).toISOString(),
      );
      options.onDamaged?.({ id: name.slice(0, -".jsonl".length), path, problem, updatedAt });
    }
  }
  return summaries.sort((a, b) => b.updatedAt.localeCompare(a.updatedAt) || b.id.localeCompare(a.id));
}

function summarize({ header, entries }: Transcript): SessionSummary {
  const messages = entries.flatMap((entry) => (entry.type === "message" ? [entry.message] : []));
  const outcomes = entries.flatMap((entry) => (entry.type === "outcome" ? [entry.outcome] : []));
  const firstUser = messages.find((message) => message.role === "user");
  const title = firstUser
    ? firstUser.content.flatMap((part) => (part.type === "text" ? [part.text] : [])).join(" ")
    : "";
  const summary: SessionSummary = {
    id: header.sessionId,
    agentName: header.agentName,
    model: header.model,
    createdAt: header.createdAt,
    updatedAt: entries.at(-1)?.at ?? header.createdAt,
    messageCount: messages.length,
    title: shorten(title.replace(/\s+/g, " ").trim(), 80),
  };
  if (header.parentSessionId !== undefined) summary.parentSessionId = header.parentSessionId;
  const lastOutcome = outcomes.at(-1);
  if (lastOutcome) summary.lastOutcome = lastOutcome.status;
  return summary;
}

function shorten(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

function parseJsonObject(raw: string): RawLine | undefined {
  try {
    const value: unknown = JSON.parse(raw);
    return typeof value === "object" && value !== null && !Array.isArray(value)
      ? (value as RawLine)
      : undefined;
  } catch {
    return undefined;
  }
}

function describeIssue(error: { issues: Array<{ path: PropertyKey[]; message: string }> }): string {
  const issue = error.issues[0];
  if (!issue) return "unknown problem";
  const path = issue.path.map(String).join(".");
  return path ? `${path}: ${issue.message}` : issue.message;
}
