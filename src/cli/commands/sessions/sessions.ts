import { isValidSessionId } from "../../../agent/session/session-id.ts";
import { type SessionTreeUsage, sessionTreeUsage } from "../../../agent/session/session-tree.ts";
import {
  type DamagedSession,
  listSessions,
  readTranscript,
  type SessionSummary,
  TranscriptFormatError,
} from "../../../agent/session/transcript.ts";
import { sessionPath } from "../../../state/state-dir.ts";
import { checkedWorkspace } from "../../config/check-config.ts";
import { damagedSessionError } from "../../damaged-session.ts";
import { UsageError } from "../../errors.ts";
import { EXIT_CODES } from "../../exit-codes.ts";
import type { CliIo } from "../../io.ts";
import { colorEnabled, createStyle } from "../../render/style.ts";
import { age, formatTable } from "../../render/table.ts";
import { formatUsage, renderTranscript } from "../../render/transcript-view.ts";
import { isUsersSession } from "../../session-choice.ts";

export interface SessionsOptions {
  cwd?: string;
  json?: boolean;
  /** `list --all`: subagents' sessions too. */
  all?: boolean;
}

/**
 * `agentry sessions list`: the workspace's sessions, most recent first — the user's own (those with
 * no parent), or with `--all` the subagents' too. A transcript that cannot be read is listed as
 * damaged, with the reason: it is the user's data, and it must not vanish.
 */
export async function sessionsListCommand(options: SessionsOptions, io: CliIo): Promise<number> {
  const workspace = await checkedWorkspace(options.cwd, io);
  const damaged: DamagedSession[] = [];
  const listed = await listSessions(workspace, { onDamaged: (file) => damaged.push(file) });
  const sessions = options.all ? listed : listed.filter(isUsersSession);
  const hidden = listed.length - sessions.length;
  if (options.json) {
    const listed = [
      ...sessions,
      ...damaged.map(({ id, updatedAt, problem }) => ({ id, updatedAt, damaged: problem })),
    ];
    io.stdout.write(`${JSON.stringify(listed)}\n`);
    return EXIT_CODES.completed;
  }
  if (sessions.length === 0 && damaged.length === 0) {
    const children = hidden > 0 ? ` (only ${subagentSessions(hidden)}: agentry sessions list --all)` : "";
    io.stderr.write(`No sessions in ${workspace}${children}. Start one with: agentry run "<prompt>"\n`);
    return EXIT_CODES.completed;
  }
  io.stdout.write(sessionsTable(sessions, new Date(), damaged));
  if (hidden > 0) io.stderr.write(`(and ${subagentSessions(hidden)}: agentry sessions list --all)\n`);
  return EXIT_CODES.completed;
}

function subagentSessions(count: number): string {
  return `${count} subagent session${count === 1 ? "" : "s"}`;
}

/** `agentry sessions show <id>`: one transcript, readable or as JSON. */
export async function sessionsShowCommand(id: string, options: SessionsOptions, io: CliIo): Promise<number> {
  const workspace = await checkedWorkspace(options.cwd, io);
  if (!isValidSessionId(id)) throw new UsageError(`Invalid session id ${JSON.stringify(id)}.`);
  const path = sessionPath(workspace, id);
  const transcript = await readTranscript(path).catch((error: unknown) => {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") {
      throw new UsageError(
        `No session "${id}" in ${workspace}. List the sessions with: agentry sessions list`,
      );
    }
    if (error instanceof TranscriptFormatError) throw damagedSessionError(id, error);
    throw error;
  });
  // The cost of a session is its whole tree's: the subagents it started ran on its behalf.
  const usage = await sessionTreeUsage(workspace, transcript);
  if (options.json) {
    io.stdout.write(`${JSON.stringify({ header: transcript.header, entries: transcript.entries, usage })}\n`);
  } else {
    const style = createStyle(colorEnabled(io.stdout, io.env));
    io.stdout.write(renderTranscript(transcript, style));
    io.stdout.write(`\n${style.bold(usageLine(usage))}\n`);
  }
  for (const warning of options.json ? transcript.warnings : []) io.stderr.write(`warning: ${warning}\n`);
  return EXIT_CODES.completed;
}

/** `usage: 1,234 tokens · $0.0100 (this session) · 5,678 tokens · $0.0300 with its 2 subagent sessions` */
export function usageLine(usage: SessionTreeUsage): string {
  if (usage.subagentSessions === 0) return `usage: ${formatUsage(usage.tree)}`;
  const plural = usage.subagentSessions === 1 ? "session" : "sessions";
  return `usage: ${formatUsage(usage.tree)} with its ${usage.subagentSessions} subagent ${plural} (this session alone: ${formatUsage(usage.session)})`;
}

export function sessionsTable(
  sessions: SessionSummary[],
  now: Date,
  damaged: readonly DamagedSession[] = [],
): string {
  const header = ["ID", "AGE", "AGENT", "MODEL", "MESSAGES", "OUTCOME", "TITLE"];
  const rows = sessions.map((s) => [
    s.id,
    age(now.getTime() - Date.parse(s.updatedAt)),
    s.agentName,
    s.model,
    String(s.messageCount),
    s.lastOutcome ?? "-",
    s.title,
  ]);
  for (const file of damaged) {
    const why = file.problem.replace(`${file.path} `, "").replace(/\s+/g, " ");
    rows.push([file.id, age(now.getTime() - Date.parse(file.updatedAt)), "-", "-", "-", "damaged", why]);
  }
  return formatTable(header, rows);
}
