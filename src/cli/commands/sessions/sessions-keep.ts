import { readFile } from "node:fs/promises";
import { dirname } from "node:path";
import { isValidSessionId } from "../../../agent/session/session-id.ts";
import { ensureStateDir, sessionPath } from "../../../state/state-dir.ts";
import { writeFileAtomic } from "../../../tasks/workspace/atomic-write.ts";
import { checkedWorkspace } from "../../config/check-config.ts";
import { UsageError } from "../../errors.ts";
import { EXIT_CODES } from "../../exit-codes.ts";
import type { CliIo } from "../../io.ts";
import { keptSessionsPath } from "./sessions-retention.ts";

export interface SessionsKeepOptions {
  cwd?: string;
  /** `--undo`: let a prune take them again. */
  undo?: boolean;
}

/**
 * The sessions marked to keep, which no prune removes. A file that cannot be read is an error: the
 * prune stops rather than guess which sessions the user chose to keep.
 */
export async function keptSessions(workspace: string): Promise<Set<string>> {
  const path = keptSessionsPath(workspace);
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return new Set();
    throw error;
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    value = undefined;
  }
  const sessions = (value as { sessions?: unknown } | undefined)?.sessions;
  if (!Array.isArray(sessions) || !sessions.every((id) => typeof id === "string"))
    throw new UsageError(
      `${path} is not a list of kept sessions ({"sessions": ["<id>", …]}): fix or remove it (agentry sessions keep writes it), then prune again.`,
    );
  return new Set(sessions as string[]);
}

/** `agentry sessions keep <id…>`: no prune removes them (with their subagents) until `--undo`. */
export async function sessionsKeepCommand(
  ids: string[],
  options: SessionsKeepOptions,
  io: CliIo,
): Promise<number> {
  const workspace = await checkedWorkspace(options.cwd, io);
  for (const id of ids)
    if (!isValidSessionId(id)) throw new UsageError(`Invalid session id ${JSON.stringify(id)}.`);
  const kept = await keptSessions(workspace);
  if (options.undo !== true) {
    const { existsSync } = await import("node:fs");
    const missing = ids.filter((id) => !existsSync(sessionPath(workspace, id)));
    if (missing.length > 0)
      throw new UsageError(
        `No session ${missing.join(", ")} in ${workspace}. List them with: agentry sessions list --all`,
      );
  }
  for (const id of ids) {
    if (options.undo === true) kept.delete(id);
    else kept.add(id);
  }
  const path = keptSessionsPath(workspace);
  ensureStateDir(workspace, dirname(path));
  await writeFileAtomic(path, `${JSON.stringify({ sessions: [...kept].sort() }, null, 2)}\n`);
  io.stdout.write(
    options.undo === true
      ? `${ids.join(", ")}: no longer kept; a prune may remove ${ids.length === 1 ? "it" : "them"}.\n`
      : `${ids.join(", ")}: kept; no prune removes ${ids.length === 1 ? "it" : "them"} (undo: agentry sessions keep --undo ${ids.join(" ")}).\n`,
  );
  return EXIT_CODES.completed;
}
