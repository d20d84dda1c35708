import type { SessionSummary } from "../../../agent/session/transcript.ts";
import { readKey } from "../../read-key.ts";
import { age } from "../../render/table.ts";

/** Sessions the picker offers, one digit each (1–9, then 0). */
const SHOWN = 10;

/**
 * `agentry chat --resume` without an id, on a terminal: the latest of the user's sessions, one key to
 * choose (1–9, 0 for the tenth, Enter the latest); Esc, `q` or Ctrl-C choose none. Resolves to the
 * chosen session's id, or undefined.
 */
export async function pickSession(
  sessions: readonly SessionSummary[],
  io: { stdin: NodeJS.ReadableStream; stderr: NodeJS.WritableStream },
  now = new Date(),
): Promise<string | undefined> {
  const shown = sessions.slice(0, SHOWN);
  const lines = shown.map((session, index) => {
    const messages = `${session.messageCount} message${session.messageCount === 1 ? "" : "s"}`;
    const when = age(now.getTime() - Date.parse(session.updatedAt));
    return `  ${(index + 1) % 10}  ${session.id}  ${when}  ${messages}  ${session.title}`;
  });
  const more =
    sessions.length > SHOWN
      ? [`  … and ${sessions.length - SHOWN} older: agentry sessions list, then agentry chat --resume <id>`]
      : [];
  io.stderr.write(
    `Resume which session? (most recent first)\n${[...lines, ...more].join("\n")}\n` +
      `Press its number (Enter: 1), or Esc for none > `,
  );
  const choice = await readKey(io.stdin, new AbortController().signal, (chunk) => {
    if (chunk === "\r" || chunk === "\n") return shown[0]?.id;
    if (chunk === "\u001b" || chunk === "\u0003" || chunk.trim().toLowerCase() === "q") return "none";
    const digit = /^\d/.exec(chunk.trim())?.[0];
    const index = digit === undefined ? -1 : (Number(digit) + 9) % 10;
    const picked = shown[index]?.id;
    if (picked === undefined)
      io.stderr.write(
        `\n  press 1–${Math.min(shown.length, 9)}${shown.length === 10 ? " or 0" : ""}, Enter or Esc > `,
      );
    return picked;
  });
  const id = choice === "none" || choice === "dismissed" ? undefined : choice;
  io.stderr.write(`${id ?? "none"}\n`);
  return id;
}
