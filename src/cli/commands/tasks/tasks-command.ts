import { type Command, InvalidArgumentError, Option } from "commander";
import { runsAt } from "../../../tasks/runs-at.ts";
import type { TaskRecord } from "../../../tasks/task-record.ts";
import { isFinished, TASK_STATUSES, type TaskStatus } from "../../../tasks/task-status.ts";
import { errorMessage } from "../../../text/error-message.ts";
import { UsageError } from "../../errors.ts";
import { EXIT_CODES } from "../../exit-codes.ts";
import { storeOption } from "../../fleet-flags.ts";
import type { CliIo } from "../../io.ts";
import { age, formatTable } from "../../render/table.ts";
import type { CommandDeps } from "../command-deps.ts";
import { cwdOption, positiveInteger, positiveNumberOf } from "../options.ts";
import { type TaskChanges, taskChanges } from "./task-changes.ts";
import { DEFAULT_ORPHAN_TIMEOUT_S, type Opened, withStore } from "./tasks-store.ts";

export { DEFAULT_ORPHAN_TIMEOUT_S };

interface CommonOptions {
  cwd?: string;
  json?: boolean;
  /** `--store`: the fleet's Redis instead of the workspace's files. */
  store?: string;
}

const POLL_MS = 100;

// Registering must stay cheap (`agentry --version` builds every command), and `tasks list` must be
// quick over thousands of records, so neither loads zod: the store reads without it, and the config
// (whose schema is zod) loads only when a config file or setting exists.

const TASKS_HELP = `
A task is one subagent run: its record (status, owner process, heartbeat, result) lives in
<workspace>/.agentry/agents/<parent>/tasks/<session>.json and is shared by every process on the
workspace, so these commands work while \`agentry run\` is running in another terminal. With
--store redis://host:port/db (or AGENTRY_REDIS_URL) they read the fleet's records on Redis instead:
every task of every machine that runs with the same store.

Statuses: PENDING (queued), RUNNING, COMPLETED, FAILED, CANCELLED. A FAILED or CANCELLED task says
why in its reason: orphaned (its process died or stopped heartbeating), stalled, budget, timeout,
max_turns, cancelled. list and show first mark orphaned tasks, after subagents.orphanTimeoutMs
(config; default ${DEFAULT_ORPHAN_TIMEOUT_S} s) without a heartbeat, or at once when the owner process is gone.
See docs/tasks.md.

Examples:
  $ agentry tasks list
  $ agentry tasks list --status RUNNING --json | jq -r '.[].taskId'
  $ agentry tasks show sub-20250114-093012-k3f9qa
  $ agentry tasks cancel sub-20250114-093012-k3f9qa
  $ agentry tasks wait sub-20250114-093012-k3f9qa --timeout 600 && echo done
`;

function statusOption(value: string): TaskStatus {
  const upper = value.trim().toUpperCase();
  if (!(TASK_STATUSES as readonly string[]).includes(upper))
    throw new InvalidArgumentError(`must be one of ${TASK_STATUSES.join(", ")}.`);
  return upper as TaskStatus;
}

const seconds = positiveNumberOf("a positive number of seconds");

/** Adds `agentry tasks list|show|cancel|wait|prune`; the store and config load only when one runs. */
export function registerTasksCommand(program: Command, deps: CommandDeps): Command {
  const { io, result } = deps;
  const tasks = program
    .command("tasks")
    .summary("list, show, cancel and wait for subagent tasks")
    .description(
      "See and control the subagent tasks of a workspace from any terminal, also while agentry run is working.",
    )
    .addHelpText("after", TASKS_HELP);
  tasks
    .command("list")
    .summary("list the workspace's tasks, newest first")
    .description(
      "List the workspace's tasks, newest first: task id, status (and reason), agent, age, whether it " +
        "runs in the background, parent session and description. Tasks whose owner process is gone or " +
        "silent are marked FAILED (orphaned) first.",
    )
    .addOption(cwdOption())
    .addOption(storeOption())
    .addOption(
      new Option(
        "-s, --status <status>",
        `only tasks with this status (${TASK_STATUSES.join(", ")})`,
      ).argParser(statusOption),
    )
    .option("--json", "print the records as a JSON array (all of them unless --limit is given)")
    .addOption(
      new Option(
        "-n, --limit <n>",
        `show at most n tasks, newest first (default ${DEFAULT_LIST_LIMIT} in the table; 0 = all)`,
      ).argParser(wholeNumber),
    )
    .addHelpText("after", "\nExit 0; 2 on a bad option or an unreadable config.\n")
    .action(async (options: CommonOptions & { status?: TaskStatus; limit?: number }) => {
      result.exitCode = await withStore(io, options, (ws) => listTasks(ws, options, io));
    });
  tasks
    .command("show")
    .summary("show one task and its result or error")
    .description(
      "Show one task: status and reason, agent, owner process, heartbeat, usage, and its result or error.",
    )
    .argument("<task-id>", "the task id (see: agentry tasks list)")
    .addOption(cwdOption())
    .addOption(storeOption())
    .option("--json", "print the record as one JSON object")
    .addHelpText("after", "\nExit 0; 2 when there is no such task.\n")
    .action(async (id: string, options: CommonOptions) => {
      result.exitCode = await withStore(io, options, (ws) => showTask(ws, id, options, io));
    });
  tasks
    .command("cancel")
    .summary("stop a running task (and the subagents it started)")
    .description(
      "Ask the process running a task to stop it, with the subagents it started and the commands they " +
        "run, and wait for it to confirm. The owner checks for the request several times a second; a task " +
        "whose owner is gone is marked FAILED (orphaned) instead.",
    )
    .argument("<task-id>", "the task id (see: agentry tasks list)")
    .addOption(cwdOption())
    .addOption(storeOption())
    .addOption(
      new Option("--wait <seconds>", "how long to wait for the owner to confirm")
        .argParser(seconds)
        .default(5),
    )
    .addHelpText(
      "after",
      "\nExit 0 when the task ended (or had already finished), 1 when its owner did not confirm in time,\n" +
        "2 when there is no such task.\n",
    )
    .action(async (id: string, options: CommonOptions & { wait: number }) => {
      result.exitCode = await withStore(io, options, (ws) => cancelTask(ws, id, options.wait, io));
    });
  tasks
    .command("wait")
    .summary("wait until a task finishes and print its result")
    .description(
      "Wait until a task finishes, then print it with its result (or error). Orphaned tasks are swept " +
        "every second while waiting, so a task whose process died does not wait forever.",
    )
    .argument("<task-id>", "the task id (see: agentry tasks list)")
    .addOption(cwdOption())
    .addOption(storeOption())
    .addOption(
      new Option(
        "--timeout <seconds>",
        "give up after this long (default: wait as long as it runs)",
      ).argParser(seconds),
    )
    .option("--json", 'print { "timedOut": boolean, "task": record }')
    .addHelpText(
      "after",
      "\nExit 0 when it COMPLETED, 1 when it FAILED or was CANCELLED or is still running at --timeout,\n" +
        "2 when there is no such task.\n",
    )
    .action(async (id: string, options: CommonOptions & { timeout?: number }) => {
      result.exitCode = await withStore(io, options, (ws) => waitTask(ws, id, options, io));
    });
  tasks
    .command("prune")
    .summary("remove old finished task records that belong to no session here")
    .description(
      "Remove the finished task records that belong to no session of this workspace (agentry serve's, " +
        "workflow runs', those of pruned sessions) and are older than --older-than or past the newest " +
        "--keep; without either, the retention setting of your user config. Never a running one, nor one " +
        "whose result its parent has not heard; a session's own records go with it (agentry sessions prune).",
    )
    .addOption(cwdOption())
    .addOption(storeOption())
    .option("--older-than <age>", "records last active longer ago than this (30d, 12h, 90m, 2w)")
    .addOption(new Option("--keep <n>", "keep the newest n of them").argParser(positiveInteger))
    .option("--dry-run", "print what would be removed, remove nothing")
    .option("--json", "print what was removed and left as one JSON object")
    .addHelpText(
      "after",
      "\nExit 0; 2 on a bad option, no rule (no flag and no retention setting), or --store.\n",
    )
    .action(async (options: CommonOptions & { olderThan?: string; keep?: number; dryRun?: boolean }) => {
      const { tasksPruneCommand } = await import("./tasks-prune.ts");
      result.exitCode = await withStore(io, options, (ws) => tasksPruneCommand(ws, options, io));
    });
  return tasks;
}

async function listTasks(
  ws: Opened,
  options: CommonOptions & { status?: TaskStatus; limit?: number },
  io: CliIo,
): Promise<number> {
  const swept = await ws.listSwept();
  const all = options.status === undefined ? swept : swept.filter((r) => r.status === options.status);
  const limit = options.limit ?? (options.json ? 0 : DEFAULT_LIST_LIMIT);
  const records = limit > 0 ? all.slice(0, limit) : all;
  if (options.json) {
    io.stdout.write(`${JSON.stringify(records)}\n`);
    return EXIT_CODES.completed;
  }
  if (records.length === 0) {
    const which = options.status === undefined ? "" : ` with status ${options.status}`;
    io.stderr.write(`No tasks${which} in ${ws.where}.\n`);
    return EXIT_CODES.completed;
  }
  io.stdout.write(tasksTable(records, Date.now()));
  if (records.length < all.length)
    io.stderr.write(`(the newest ${records.length} of ${all.length} tasks; --limit 0 shows all)\n`);
  return EXIT_CODES.completed;
}

/** The table stays readable in a busy workspace; scripts use --json, which lists all. */
const DEFAULT_LIST_LIMIT = 50;

function wholeNumber(value: string): number {
  const number = Number(value);
  if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(number))
    throw new InvalidArgumentError("must be a whole number (0 = all).");
  return number;
}

async function showTask(ws: Opened, id: string, options: CommonOptions, io: CliIo): Promise<number> {
  await ws.sweep();
  const record = await find(ws, id);
  io.stdout.write(options.json ? `${JSON.stringify(record)}\n` : describe(record, Date.now()));
  return EXIT_CODES.completed;
}

async function cancelTask(ws: Opened, id: string, waitSeconds: number, io: CliIo): Promise<number> {
  const before = await find(ws, id);
  if (isFinished(before.status)) {
    io.stdout.write(`Task ${id} had already finished: ${statusText(before)}. Nothing to cancel.\n`);
    return EXIT_CODES.completed;
  }
  const changes = taskChanges(ws.store, id);
  try {
    return await confirmCancel(ws, id, before, waitSeconds, changes, io);
  } finally {
    changes.stop();
  }
}

async function confirmCancel(
  ws: Opened,
  id: string,
  before: TaskRecord,
  waitSeconds: number,
  changes: TaskChanges,
  io: CliIo,
): Promise<number> {
  await ws.store.requestCancel(id);
  const deadline = Date.now() + waitSeconds * 1000;
  let record = before;
  while (Date.now() < deadline) {
    await changes.next(Math.min(changes.watching ? 1000 : POLL_MS, Math.max(0, deadline - Date.now())));
    // A dead owner never confirms: the sweep fails its task instead.
    await ws.sweep();
    record = (await ws.store.get(id)) ?? record;
    if (isFinished(record.status)) {
      const how =
        record.status === "CANCELLED"
          ? `cancelled by its owner ${record.owner}`
          : `ended before the cancel took effect: ${statusText(record)}`;
      io.stdout.write(`Task ${id} ${how}.\n`);
      return EXIT_CODES.completed;
    }
  }
  io.stderr.write(
    `Cancel requested for task ${id}, but its owner ${record.owner} has not confirmed within ${waitSeconds} s ` +
      `(status ${record.status}). It stops at its next check; see: agentry tasks show ${id}\n`,
  );
  return EXIT_CODES.error;
}

async function waitTask(
  ws: Opened,
  id: string,
  options: CommonOptions & { timeout?: number },
  io: CliIo,
): Promise<number> {
  let record = await find(ws, id);
  const deadline =
    options.timeout === undefined ? Number.POSITIVE_INFINITY : Date.now() + options.timeout * 1000;
  let lastSweep = 0;
  const changes = taskChanges(ws.store, id);
  try {
    while (!isFinished(record.status) && Date.now() < deadline) {
      await changes.next(Math.min(changes.watching ? 1000 : 250, Math.max(0, deadline - Date.now())));
      if (Date.now() - lastSweep >= 1000) {
        lastSweep = Date.now();
        await ws.sweep();
      }
      record = (await ws.store.get(id)) ?? record;
    }
  } finally {
    changes.stop();
  }
  const timedOut = !isFinished(record.status);
  if (options.json) io.stdout.write(`${JSON.stringify({ timedOut, task: record })}\n`);
  else if (timedOut) io.stderr.write(`Task ${id} is still ${record.status} after ${options.timeout} s.\n`);
  else io.stdout.write(describe(record, Date.now()));
  return record.status === "COMPLETED" ? EXIT_CODES.completed : EXIT_CODES.error;
}

async function find(ws: Opened, id: string): Promise<TaskRecord> {
  const record = await ws.store.get(id).catch((error: unknown) => {
    throw new UsageError(errorMessage(error), { cause: error });
  });
  if (!record)
    throw new UsageError(`No task "${id}" in ${ws.where}. List the tasks with: agentry tasks list`);
  return record;
}

function statusText(record: TaskRecord): string {
  return record.reason === undefined ? record.status : `${record.status} (${record.reason})`;
}

export function tasksTable(records: readonly TaskRecord[], now: number): string {
  // Where a task runs, only when one runs elsewhere (a remote agent, a queue): most listings have none.
  const where = records.some((r) => r.ref !== undefined);
  const header = [
    "TASK ID",
    "STATUS",
    "AGENT",
    "AGE",
    "BG",
    "PARENT SESSION",
    ...(where ? ["RUNS AT"] : []),
    "DESCRIPTION",
  ];
  const rows = records.map((r) => [
    r.taskId,
    statusText(r),
    r.agentType,
    age(now - Date.parse(r.createdAt)),
    r.background ? "yes" : "no",
    r.parentSessionId,
    ...(where ? [r.ref === undefined ? "-" : runsAt(r.ref)] : []),
    r.description,
  ]);
  return formatTable(header, rows);
}

function describe(record: TaskRecord, now: number): string {
  const usage = record.usage
    ? `${record.usage.input + record.usage.cacheRead + record.usage.cacheWrite} in / ${record.usage.output} out${
        record.usage.cost === undefined ? "" : ` ($${record.usage.cost.toFixed(4)})`
      }`
    : "-";
  const fields: Array<[string, string | undefined]> = [
    ["task", record.taskId],
    ["status", statusText(record)],
    ["agent", record.agentType],
    ["description", record.description],
    ["model", record.model],
    ["runs at", record.ref === undefined ? undefined : runsAt(record.ref)],
    ["path", record.agentPath?.join("/")],
    ["background", record.background ? "yes" : "no"],
    ["parent", `${record.parentAgentId} (session ${record.parentSessionId})`],
    // A remote child's transcript is with its agent, not here.
    ["transcript", record.ref?.kind === "a2a" ? undefined : `agentry sessions show ${record.childSessionId}`],
    ["owner", record.owner],
    ["created", `${record.createdAt} (${age(now - Date.parse(record.createdAt))} ago)`],
    ["heartbeat", `${record.updatedAt} (${age(now - Date.parse(record.updatedAt))} ago)`],
    ["delivered", record.deliveredAt],
    ["cancel requested", record.cancelRequested ? "yes" : undefined],
    ["tokens", usage],
  ];
  const width = Math.max(...fields.map(([name]) => name.length)) + 1;
  const lines = fields
    .filter((field): field is [string, string] => field[1] !== undefined)
    .map(([name, value]) => `${`${name}:`.padEnd(width)} ${value}`);
  if (record.error !== undefined) lines.push("", `error: ${record.error}`);
  if (record.result !== undefined && record.result.trim() !== "")
    lines.push("", record.status === "COMPLETED" ? "result:" : "last text:", record.result.trim());
  return `${lines.join("\n")}\n`;
}
