import type { TaskFileError } from "../../../tasks/task-errors.ts";
import type { TaskRecord } from "../../../tasks/task-record.ts";
import type { TaskStore } from "../../../tasks/task-store.ts";
import { loadConfiguredSettings } from "../../config/check-config.ts";
import { storeUrl } from "../../fleet-flags.ts";
import type { CliIo } from "../../io.ts";

/** `DEFAULT_SUBAGENT_LIMITS.orphanTimeoutMs`, in seconds (test/cli/tasks-command.test.ts pins it). */
export const DEFAULT_ORPHAN_TIMEOUT_S = 30;

/** The store a `tasks` subcommand works on, and its orphan sweep. */
export interface Opened {
  workspace: string;
  /** What the store is, for messages: the workspace, or the fleet's Redis. */
  where: string;
  store: TaskStore;
  close(): Promise<void>;
  /** Marks orphans FAILED; problems reading files go to stderr. */
  sweep(): Promise<void>;
  /** Every record, newest first, after marking the orphans among them FAILED; problems go to stderr. */
  listSwept(): Promise<TaskRecord[]>;
}

/** Runs a subcommand on the store `--store`/`AGENTRY_REDIS_URL` names (else the workspace's), then closes it. */
export async function withStore(
  io: CliIo,
  options: { cwd?: string; store?: string },
  command: (opened: Opened) => Promise<number>,
): Promise<number> {
  const opened = await open(io, options.cwd, options.store);
  try {
    return await command(opened);
  } finally {
    await opened.close();
  }
}

async function open(io: CliIo, cwd: string | undefined, storeFlag: string | undefined): Promise<Opened> {
  const [{ resolveWorkspace }, { WorkspaceTaskStore }, { failOrphans, sweepOrphans }] = await Promise.all([
    import("../../workspace.ts"),
    import("../../../tasks/workspace/workspace-task-store.ts"),
    import("../../../tasks/sweeper.ts"),
  ]);
  const workspace = await resolveWorkspace(cwd, io.cwd);
  const settings = await loadConfiguredSettings(workspace, io.env);
  const staleAfterMs = settings?.subagents.orphanTimeoutMs ?? DEFAULT_ORPHAN_TIMEOUT_S * 1000;
  const redisUrl = storeUrl(storeFlag, io.env, settings?.fleet.redis);
  const redis =
    redisUrl === undefined
      ? undefined
      : await (await import("../../../tasks/redis/redis-task-store.ts")).RedisTaskStore.connect(redisUrl);
  const store: TaskStore & { close?: () => Promise<void> } = redis ?? new WorkspaceTaskStore({ workspace });
  return {
    workspace,
    where: redis === undefined ? workspace : `the fleet's store at ${redis.target.label}`,
    store,
    close: async () => await store.close?.(),
    async sweep() {
      const report = await sweepOrphans(store, { staleAfterMs });
      for (const error of report.unreadable) warnUnreadable(io, error);
    },
    async listSwept() {
      // One read of every file serves both the sweep and the listing.
      const all = await store.list({ onUnreadable: (error) => warnUnreadable(io, error) });
      const orphaned = await failOrphans(store, all, { staleAfterMs });
      if (orphaned.length === 0) return all;
      const after = new Map(orphaned.map((record) => [record.taskId, record]));
      return all.map((record) => after.get(record.taskId) ?? record);
    },
  };
}

function warnUnreadable(io: CliIo, error: TaskFileError): void {
  io.stderr.write(`warning: ${error.message}\n`);
}
