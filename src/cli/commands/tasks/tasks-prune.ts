import { existsSync } from "node:fs";
import { sessionPath } from "../../../state/state-dir.ts";
import type { TaskRecord } from "../../../tasks/task-record.ts";
import { isFinished } from "../../../tasks/task-status.ts";
import { WorkspaceTaskStore } from "../../../tasks/workspace/workspace-task-store.ts";
import { UsageError } from "../../errors.ts";
import { EXIT_CODES } from "../../exit-codes.ts";
import type { CliIo } from "../../io.ts";
import { age, formatTable } from "../../render/table.ts";
import { resumable } from "../sessions/sessions-prune-plan.ts";
import { pruned, pruneRules } from "../sessions/sessions-retention.ts";
import type { Opened } from "./tasks-store.ts";

export interface TasksPruneOptions {
  olderThan?: string;
  keep?: number;
  dryRun?: boolean;
  json?: boolean;
}

/**
 * `agentry tasks prune`: removes the finished task records that belong to no session of this
 * workspace — an A2A client's tasks of `agentry serve`, workflow runs, the records of pruned or
 * deleted sessions — that the rules take (older than `--older-than`, or past the newest `--keep`;
 * else the user's `retention`). Never a running one, never one whose result its parent has not heard
 * yet, and never a record of a session still here: its parent may continue that child (`task` with
 * its task_id), so it goes with its session (`agentry sessions prune`).
 */
export async function tasksPruneCommand(ws: Opened, options: TasksPruneOptions, io: CliIo): Promise<number> {
  if (!(ws.store instanceof WorkspaceTaskStore))
    throw new UsageError(
      `agentry tasks prune removes the workspace's records; ${ws.where} is not pruned by it (drop --store and AGENTRY_REDIS_URL to prune ${ws.workspace}).`,
    );
  const rules = await pruneRules(options, "tasks", ws.workspace, io.env);
  const all = await ws.listSwept();
  const ofSessions = (record: TaskRecord) => existsSync(sessionPath(ws.workspace, record.parentSessionId));
  const candidates = all.filter((record) => !ofSessions(record));
  const now = Date.now();
  const taken = candidates
    .sort((a, b) => b.updatedAt.localeCompare(a.updatedAt) || b.taskId.localeCompare(a.taskId))
    .filter((record, rank) => pruned(rules, Date.parse(record.updatedAt), rank, now));
  const prune = taken.filter((record) => isFinished(record.status) && !resumable(record));
  const running = taken.filter((record) => !isFinished(record.status)).length;
  const undelivered = taken.length - prune.length - running;
  const removed =
    options.dryRun === true ? prune : await ws.store.removeFinished(prune.map((record) => record.taskId));
  if (options.json === true) {
    io.stdout.write(
      `${JSON.stringify({
        dryRun: options.dryRun === true,
        rules: rules.source,
        pruned: removed.map((record) => record.taskId),
        running,
        undelivered,
        ofSessions: all.length - candidates.length,
      })}\n`,
    );
    return EXIT_CODES.completed;
  }
  if (removed.length > 0)
    io.stdout.write(
      formatTable(
        ["TASK ID", "STATUS", "AGENT", "ACTIVE", "DESCRIPTION"],
        removed.map((record) => [
          record.taskId,
          record.status,
          record.agentType,
          `${age(now - Date.parse(record.updatedAt))} ago`,
          record.description,
        ]),
      ),
    );
  const verb = options.dryRun === true ? "would prune" : "pruned";
  io.stderr.write(
    `${verb} ${removed.length} task record${removed.length === 1 ? "" : "s"} by ${rules.source}.\n`,
  );
  if (running > 0) io.stderr.write(`left ${running} that still run.\n`);
  if (undelivered > 0) io.stderr.write(`left ${undelivered} whose result their parent has not heard yet.\n`);
  const kept = all.length - candidates.length;
  if (kept > 0)
    io.stderr.write(
      `left ${kept} of sessions still here (their parents may continue them): agentry sessions prune removes them with their session.\n`,
    );
  return EXIT_CODES.completed;
}
