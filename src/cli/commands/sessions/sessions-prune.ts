import { readdir, rm, stat } from "node:fs/promises";
import { join } from "node:path";
import { sessionLockPath } from "../../../agent/session/session.ts";
import { type DamagedSession, listSessions } from "../../../agent/session/transcript.ts";
import { sessionPath, toolOutputDir } from "../../../state/state-dir.ts";
import { failOrphans } from "../../../tasks/sweeper.ts";
import type { TaskRecord } from "../../../tasks/task-record.ts";
import { WorkspaceTaskStore } from "../../../tasks/workspace/workspace-task-store.ts";
import { checkedWorkspace, loadConfiguredSettings } from "../../config/check-config.ts";
import { EXIT_CODES } from "../../exit-codes.ts";
import type { CliIo } from "../../io.ts";
import { age, formatTable } from "../../render/table.ts";
import { DEFAULT_ORPHAN_TIMEOUT_S } from "../tasks/tasks-store.ts";
import { keptSessions } from "./sessions-keep.ts";
import { PROTECTION_WORDS, planPrune, type SessionTree, sessionTrees } from "./sessions-prune-plan.ts";
import { pruneRules } from "./sessions-retention.ts";

export interface SessionsPruneOptions {
  cwd?: string;
  /** `--older-than <age>`: what was last active longer ago. */
  olderThan?: string;
  /** `--keep <n>`: the newest n of your sessions stay. */
  keep?: number;
  dryRun?: boolean;
  json?: boolean;
}

/**
 * `agentry sessions prune`: removes the sessions you started that the rules take (older than
 * `--older-than`, or past the newest `--keep`; else the user's `retention`), each with its
 * subagents' sessions, their task records and their tool output. Never a tree that runs, holds a
 * result its next `--resume` would deliver, or was kept with `agentry sessions keep`; never a
 * transcript it cannot read (listed as damaged by `sessions list`).
 */
export async function sessionsPruneCommand(options: SessionsPruneOptions, io: CliIo): Promise<number> {
  const workspace = await checkedWorkspace(options.cwd, io);
  const rules = await pruneRules(options, "sessions", workspace, io.env);
  const kept = await keptSessions(workspace);
  const damaged: DamagedSession[] = [];
  const sessions = await listSessions(workspace, { onDamaged: (file) => damaged.push(file) });
  const store = new WorkspaceTaskStore({ workspace });
  const records = await sweptRecords(store, workspace, io);
  const plan = planPrune(sessionTrees(sessions, records), rules, {
    now: Date.now(),
    kept,
    lockPath: (id) => sessionLockPath(workspace, id),
  });
  let files = 0;
  let bytes = 0;
  if (options.dryRun !== true) {
    for (const tree of plan.prune) {
      const removed = await removeTree(workspace, store, tree);
      files += removed.files;
      bytes += removed.bytes;
    }
  }
  if (options.json === true) {
    io.stdout.write(
      `${JSON.stringify({
        dryRun: options.dryRun === true,
        rules: rules.source,
        pruned: plan.prune.map((tree) => ({ id: tree.root.id, sessions: tree.sessions.map((s) => s.id) })),
        protected: plan.protected.map(({ tree, reason }) => ({ id: tree.root.id, reason })),
        files,
        bytes,
      })}\n`,
    );
    return EXIT_CODES.completed;
  }
  const now = Date.now();
  const verb = options.dryRun === true ? "would prune" : "pruned";
  if (plan.prune.length > 0)
    io.stdout.write(
      formatTable(
        ["SESSION", "ACTIVE", "SUBAGENTS", "TITLE"],
        plan.prune.map((tree) => [
          tree.root.id,
          `${age(now - tree.activeAt)} ago`,
          String(tree.sessions.length - 1),
          tree.root.title,
        ]),
      ),
    );
  const size = options.dryRun === true ? "" : ` (${files} files, ${formatBytes(bytes)})`;
  io.stderr.write(`${verb} ${count(plan.prune.length)}${size} by ${rules.source}.\n`);
  for (const { tree, reason } of plan.protected)
    io.stderr.write(`left ${tree.root.id}: ${PROTECTION_WORDS[reason]}.\n`);
  if (damaged.length > 0)
    io.stderr.write(
      `left ${damaged.length} transcript(s) it cannot read (agentry sessions list shows them).\n`,
    );
  return EXIT_CODES.completed;
}

/** The workspace's records, those of dead owners marked FAILED `orphaned` first (as `tasks list` does). */
async function sweptRecords(store: WorkspaceTaskStore, workspace: string, io: CliIo): Promise<TaskRecord[]> {
  const settings = await loadConfiguredSettings(workspace, io.env);
  const staleAfterMs = settings?.subagents.orphanTimeoutMs ?? DEFAULT_ORPHAN_TIMEOUT_S * 1000;
  const all = await store.list({ onUnreadable: (error) => io.stderr.write(`warning: ${error.message}\n`) });
  const orphaned = new Map((await failOrphans(store, all, { staleAfterMs })).map((r) => [r.taskId, r]));
  return all.map((record) => orphaned.get(record.taskId) ?? record);
}

/** Removes a tree: its records, then each session's transcript, lock and tool output. */
async function removeTree(
  workspace: string,
  store: WorkspaceTaskStore,
  tree: SessionTree,
): Promise<{ files: number; bytes: number }> {
  let files = 0;
  let bytes = 0;
  const remove = async (path: string) => {
    const size = await stat(path).then(
      (info) => info.size,
      () => undefined,
    );
    if (size === undefined) return;
    await rm(path, { force: true });
    files++;
    bytes += size;
  };
  await store.removeFinished(tree.records.map((record) => record.taskId));
  const outputs = await readdir(toolOutputDir(workspace)).catch(() => [] as string[]);
  for (const session of tree.sessions) {
    await remove(sessionPath(workspace, session.id));
    await remove(sessionLockPath(workspace, session.id));
    for (const name of outputs.filter((file) => file.startsWith(`${session.id}-`)))
      await remove(join(toolOutputDir(workspace), name));
  }
  return {
    files: files + new Set(tree.records.map((r) => `${r.parentAgentId}/${r.parentSessionId}`)).size,
    bytes,
  };
}

function count(n: number): string {
  return `${n} session${n === 1 ? "" : "s"}`;
}

function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}
