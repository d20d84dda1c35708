import { join } from "node:path";
import { STATE_GITIGNORE, stateDir, toolOutputDir } from "../../state/state-dir.ts";
import type { Operations } from "../../tools/operations.ts";
import { resolveWorkspacePath } from "../../tools/workspace-path.ts";

export interface Truncation {
  /** The text to send: all of it, or its head and tail around a note. */
  text: string;
  truncated: boolean;
}

/** Room kept for the note so the truncated text stays within the limit. */
const NOTE_ROOM = 400;

/**
 * Keeps the head and the tail of `text` within `limit` characters (errors and summaries tend to be at
 * the end, context at the start) and puts `note(omittedChars, firstOmittedLine, lastOmittedLine)` in
 * the gap. Cuts snap to line ends when one is near.
 */
export function truncateMiddle(
  text: string,
  limit: number,
  note: (omitted: { chars: number; fromLine: number; toLine: number }) => string,
): Truncation {
  if (text.length <= limit) return { text, truncated: false };
  const budget = Math.max(0, limit - NOTE_ROOM);
  let headEnd = Math.floor(budget / 2);
  let tailStart = text.length - (budget - headEnd);
  const newlineBeforeHeadEnd = text.lastIndexOf("\n", headEnd - 1);
  if (newlineBeforeHeadEnd >= headEnd * 0.8) headEnd = newlineBeforeHeadEnd + 1;
  const newlineAfterTailStart = text.indexOf("\n", tailStart);
  if (
    newlineAfterTailStart !== -1 &&
    newlineAfterTailStart + 1 - tailStart <= (text.length - tailStart) * 0.2
  )
    tailStart = newlineAfterTailStart + 1;
  const fromLine = countLines(text, headEnd) + 1;
  const toLine = countLines(text, tailStart) + (tailStart > 0 && text[tailStart - 1] !== "\n" ? 1 : 0);
  const gap = note({ chars: tailStart - headEnd, fromLine, toLine });
  const head = text.slice(0, headEnd);
  const separator = head === "" || head.endsWith("\n") ? "" : "\n";
  return { text: `${head}${separator}[${gap}]\n${text.slice(tailStart)}`, truncated: true };
}

/** The number of newlines before `end`. */
function countLines(text: string, end: number): number {
  let count = 0;
  for (let i = text.indexOf("\n"); i !== -1 && i < end; i = text.indexOf("\n", i + 1)) count++;
  return count;
}

/**
 * Truncates a tool's output for the model. When it is too long, the full text is written to
 * `.agentry/tool-output/<sessionId>-<toolCallId>.txt` (through `ops`, so the `read` tool sees the same
 * file system) and the note says where it is and which lines were left out.
 */
export async function truncateToolOutput(options: {
  text: string;
  limit: number;
  workspace: string;
  ops: Operations;
  sessionId: string;
  toolCallId: string;
}): Promise<Truncation & { spillPath?: string }> {
  const { text, limit } = options;
  if (text.length <= limit) return { text, truncated: false };
  const spillPath = join(
    toolOutputDir(options.workspace),
    `${safeName(options.sessionId)}-${safeName(options.toolCallId)}.txt`,
  );
  let saved = true;
  try {
    // Refuses a spill folder that a link leads outside the workspace (see assertStateInside); the
    // Operations write only the real path they are given.
    const target = await resolveWorkspacePath(options, spillPath);
    await ensureGitignore(options.ops, target.root);
    await options.ops.writeFile(target.absolute, text);
  } catch {
    saved = false;
  }
  const result = truncateMiddle(text, limit, ({ chars, fromLine, toLine }) => {
    const cut = `… ${chars} of ${text.length} characters omitted (lines ${fromLine}–${toLine}) …`;
    return saved
      ? `${cut} The full output is saved at ${spillPath}; read it with the read tool, using offset/limit to page through lines ${fromLine}–${toLine}.`
      : `${cut} The full output could not be saved; rerun the command with narrower output if you need the middle.`;
  });
  return saved ? { ...result, spillPath } : result;
}

async function ensureGitignore(ops: Operations, workspace: string): Promise<void> {
  const gitignore = join(stateDir(workspace), ".gitignore");
  // lstat: a link planted as .gitignore is left alone, never written through.
  if (!(await ops.lstat(gitignore))) await ops.writeFile(gitignore, STATE_GITIGNORE);
}

/** Provider tool-call ids may hold characters that do not belong in a file name. */
function safeName(value: string): string {
  return value.replace(/[^A-Za-z0-9_.-]/g, "_").slice(0, 100);
}
