import { isValidSessionId } from "../../agent/session-id.ts";
import { sessionPath } from "../../agent/state-dir.ts";
import { listSessions, readTranscript, type SessionSummary } from "../../agent/transcript.ts";
import { checkConfig } from "../config/check-config.ts";
import { UsageError } from "../errors.ts";
import { EXIT_CODES } from "../exit-codes.ts";
import type { CliIo } from "../io.ts";
import { colorEnabled, createStyle } from "../render/style.ts";
import { age, formatTable } from "../render/table.ts";
import { renderTranscript } from "../render/transcript-view.ts";
import { resolveWorkspace } from "../workspace.ts";

export interface SessionsOptions {
  cwd?: string;
  json?: boolean;
}

/** `agentry sessions list`: the workspace's sessions, most recent first. */
export async function sessionsListCommand(options: SessionsOptions, io: CliIo): Promise<number> {
  const workspace = await resolveWorkspace(options.cwd, io.cwd);
  await checkConfig(workspace, io.env);
  const sessions = await listSessions(workspace);
  if (options.json) {
    io.stdout.write(`${JSON.stringify(sessions)}\n`);
    return EXIT_CODES.completed;
  }
  if (sessions.length === 0) {
    io.stderr.write(`No sessions in ${workspace}. Start one with: agentry run "<prompt>"\n`);
    return EXIT_CODES.completed;
  }
  io.stdout.write(sessionsTable(sessions, new Date()));
  return EXIT_CODES.completed;
}

/** `agentry sessions show <id>`: one transcript, readable or as JSON. */
export async function sessionsShowCommand(id: string, options: SessionsOptions, io: CliIo): Promise<number> {
  const workspace = await resolveWorkspace(options.cwd, io.cwd);
  await checkConfig(workspace, io.env);
  if (!isValidSessionId(id)) throw new UsageError(`Invalid session id ${JSON.stringify(id)}.`);
  const path = sessionPath(workspace, id);
  const transcript = await readTranscript(path).catch((error: unknown) => {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") {
      throw new UsageError(
        `No session "${id}" in ${workspace}. List the sessions with: agentry sessions list`,
      );
    }
    throw error;
  });
  if (options.json) {
    io.stdout.write(`${JSON.stringify({ header: transcript.header, entries: transcript.entries })}\n`);
  } else {
    io.stdout.write(renderTranscript(transcript, createStyle(colorEnabled(io.stdout, io.env))));
  }
  for (const warning of options.json ? transcript.warnings : []) io.stderr.write(`warning: ${warning}\n`);
  return EXIT_CODES.completed;
}

export function sessionsTable(sessions: SessionSummary[], now: Date): string {
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
  return formatTable(header, rows);
}
