import { isValidSessionId } from "../agent/session/session-id.ts";
import { readTranscript, TranscriptFormatError } from "../agent/session/transcript.ts";
import type { TranscriptEntry } from "../agent/session/transcript-schema.ts";
import { sessionPath } from "../state/state-dir.ts";
import { summarizeArgs } from "../text/summarize-args.ts";

/** One entry of a transcript as the page shows it: who said it, what, and the tools it called. */
export interface TranscriptItem {
  kind: "user" | "assistant" | "tool" | "note";
  text: string;
  /** An assistant's tool calls, a line each (`read src/a.ts`). */
  calls?: string[];
  /** A tool result that was an error. */
  error?: boolean;
  at: string;
}

/** What the page gets for a transcript: its agent and model, and the entries. */
export interface TranscriptView {
  sessionId: string;
  agentName: string;
  model: string;
  parentSessionId?: string;
  items: TranscriptItem[];
  warnings: string[];
}

/** Tool output is long; the page shows its start (the full text is in the file, and `agentry sessions show`). */
const RESULT_CHARS = 2_000;

export type TranscriptLookup =
  | { found: true; transcript: TranscriptView }
  | { found: false; status: 400 | 404 | 422; error: string };

/** The transcript of `sessionId` in the workspace's `.agentry/sessions/`, read for the page. */
export async function transcriptView(workspace: string, sessionId: string): Promise<TranscriptLookup> {
  if (!isValidSessionId(sessionId))
    return { found: false, status: 400, error: `Invalid session id ${JSON.stringify(sessionId)}.` };
  try {
    const transcript = await readTranscript(sessionPath(workspace, sessionId));
    const { header } = transcript;
    return {
      found: true,
      transcript: {
        sessionId,
        agentName: header.agentName,
        model: header.model,
        ...(header.parentSessionId === undefined ? {} : { parentSessionId: header.parentSessionId }),
        items: transcript.entries.flatMap(items),
        warnings: transcript.warnings,
      },
    };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT")
      return {
        found: false,
        status: 404,
        error: `No transcript of session ${sessionId} in ${workspace}: a task that ran on another machine keeps its transcript there.`,
      };
    if (error instanceof TranscriptFormatError) return { found: false, status: 422, error: error.message };
    throw error;
  }
}

function items(entry: TranscriptEntry): TranscriptItem[] {
  switch (entry.type) {
    case "message": {
      const { message, at } = entry;
      if (message.role === "user")
        return [
          {
            kind: "user",
            text: message.content.map((p) => (p.type === "text" ? p.text : "[image]")).join("\n"),
            at,
          },
        ];
      if (message.role === "assistant") {
        const text = message.content.flatMap((p) => (p.type === "text" ? [p.text] : [])).join("\n");
        const calls = message.content.flatMap((p) =>
          p.type === "tool_call" ? [`${p.name} ${summarizeArgs(p.args, 120)}`.trim()] : [],
        );
        const error =
          message.errorMessage === undefined ? "" : `(the model call failed: ${message.errorMessage})`;
        return [
          {
            kind: "assistant",
            text: [text, error].filter((t) => t !== "").join("\n"),
            ...(calls.length > 0 ? { calls } : {}),
            at,
          },
        ];
      }
      return message.content.map((result) => ({
        kind: "tool" as const,
        text: `${result.toolName}: ${cut(result.content)}`,
        ...(result.isError ? { error: true } : {}),
        at,
      }));
    }
    case "compaction":
      return [
        {
          kind: "note",
          text: `The conversation was compacted (${entry.tokensBefore} → ${entry.tokensAfter} tokens).`,
          at: entry.at,
        },
      ];
    case "outcome":
      return [
        { kind: "note", text: `Ended: ${entry.outcome.status}, ${entry.outcome.turns} turns.`, at: entry.at },
      ];
    case "abort":
      return [{ kind: "note", text: `Aborted: ${entry.message}`, at: entry.at }];
    case "error":
      return [{ kind: "note", text: `Error: ${entry.message}`, at: entry.at }];
  }
}

function cut(text: string): string {
  return text.length > RESULT_CHARS
    ? `${text.slice(0, RESULT_CHARS)}… (${text.length - RESULT_CHARS} more characters)`
    : text;
}
