import { open, readdir } from "node:fs/promises";
import { join } from "node:path";
import { addUsage, emptyUsage, type Usage } from "../../model/messages.ts";
import { sessionsDir } from "../../state/state-dir.ts";
import { readTranscript, type Transcript } from "./transcript.ts";

/** What a session and the subagents it started (at any depth) used, from their transcripts. */
export interface SessionTreeUsage {
  /**
   * The session's own model calls: the sum of its runs' outcomes, plus the summary calls of
   * compactions made outside a run (`/compact`; an automatic one is in its run's outcome).
   */
  session: Usage;
  /** The session plus every descendant session. */
  tree: Usage;
  /** Descendant sessions found (children, their children …). */
  subagentSessions: number;
  /** Runs counted (outcome entries), the session's own included. */
  runs: number;
}

/**
 * Sums the outcomes of a session and of every session whose `parentSessionId` chain leads to it.
 * A run killed before it wrote its outcome is not counted (its calls' usage is not in one place).
 * Files that cannot be read are skipped: this is a report, not a check.
 */
export async function sessionTreeUsage(workspace: string, root: Transcript): Promise<SessionTreeUsage> {
  const dir = sessionsDir(workspace);
  const names = (await readdir(dir).catch(() => [] as string[])).filter((name) => name.endsWith(".jsonl"));
  // Only the header line of each file is read to find the tree; whole files only for its members.
  const children = new Map<string, string[]>();
  await Promise.all(
    names.map(async (name) => {
      const parent = await parentOf(join(dir, name));
      if (parent === undefined) return;
      const list = children.get(parent) ?? [];
      list.push(name.slice(0, -".jsonl".length));
      children.set(parent, list);
    }),
  );
  const own = outcomesOf(root);
  let tree = own.usage;
  let runs = own.runs;
  let subagentSessions = 0;
  const queue = [...(children.get(root.header.sessionId) ?? [])];
  const seen = new Set<string>([root.header.sessionId]);
  while (queue.length > 0) {
    const id = queue.shift() as string;
    if (seen.has(id)) continue;
    seen.add(id);
    subagentSessions++;
    queue.push(...(children.get(id) ?? []));
    const transcript = await readTranscript(join(dir, `${id}.jsonl`)).catch(() => undefined);
    if (!transcript) continue;
    const counted = outcomesOf(transcript);
    tree = addUsage(tree, counted.usage);
    runs += counted.runs;
  }
  return { session: own.usage, tree, subagentSessions, runs };
}

function outcomesOf(transcript: Transcript): { usage: Usage; runs: number } {
  let usage = emptyUsage();
  let runs = 0;
  for (const entry of transcript.entries) {
    if (entry.type === "compaction" && entry.trigger === "manual") usage = addUsage(usage, entry.usage);
    if (entry.type !== "outcome") continue;
    usage = addUsage(usage, entry.outcome.usage);
    runs++;
  }
  return { usage, runs };
}

/** The `parentSessionId` of a transcript's header, read from its first line only. */
async function parentOf(path: string): Promise<string | undefined> {
  let file: Awaited<ReturnType<typeof open>> | undefined;
  try {
    file = await open(path, "r");
    const buffer = Buffer.alloc(4096);
    const { bytesRead } = await file.read(buffer, 0, buffer.length, 0);
    const firstLine = buffer.subarray(0, bytesRead).toString("utf8").split("\n")[0] ?? "";
    const header: unknown = JSON.parse(firstLine);
    const parent =
      typeof header === "object" && header !== null
        ? (header as Record<string, unknown>).parentSessionId
        : undefined;
    return typeof parent === "string" ? parent : undefined;
  } catch {
    return undefined;
  } finally {
    await file?.close();
  }
}
