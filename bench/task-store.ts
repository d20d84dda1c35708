// Task store: `agentry tasks list` over 10,000 records (the installed package's CLI and this
// checkout's, spawned, and the store's list() alone in a fresh process); cross-process visibility of a status change; and
// cancel latency (cancelRequested set by another process → the child's run ends). Also the old
// list micro-benchmark (warm list, get, update in one process).
//   node bench/task-store.ts [--runs 10]
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { WorkspaceTaskStore } from "../src/tasks/workspace/workspace-task-store.ts";
import { type BenchArgs, benchMain } from "./support/bench-main.ts";
import { measureCancelLatency } from "./support/cancel-latency.ts";
import { installPacked } from "./support/dist-build.ts";
import { type Row, row } from "./support/row.ts";
import { expectSuccess, runNode } from "./support/spawn-timed.ts";
import { writeTaskFixture } from "./support/task-fixture.ts";
import { tempDir } from "./support/temp-dir.ts";

export interface TaskStoreOptions extends BenchArgs {
  /** Records in the listed store (default 10,000, in 100 files). */
  records?: number;
  files?: number;
  /** Cancel measurements (default 5: each waits up to one cancel poll). */
  cancelRuns?: number;
  /**
   * The `bin/agentry.js` of a package already built from this checkout, laid out as installed (the
   * suite's bundle: test/support/build-cli.ts), instead of packing one.
   */
  packageBin?: string;
}

const FIGURE = "task store";
const BIN = fileURLToPath(new URL("../bin/agentry.js", import.meta.url));
const LIST_MAIN = fileURLToPath(new URL("./support/store-list-main.ts", import.meta.url));
const WATCH_MAIN = fileURLToPath(new URL("./support/store-watch-main.ts", import.meta.url));
const WATCH_POLL_MS = 10;

export async function measureTaskStore(options: TaskStoreOptions = {}): Promise<Row[]> {
  const runs = options.runs ?? 10;
  const total = options.records ?? 10_000;
  const files = options.files ?? 100;
  const rows: Row[] = [];
  const { dir, remove } = await tempDir("task-store");
  try {
    const records = await writeTaskFixture(dir, total, files);
    await sleep(200); // past the read cache's racy window, as in a long-lived store
    rows.push(...(await listRows(dir, total, runs, options.packageBin)));
    rows.push(...(await inProcessRows(dir, records.at(-1)!.taskId, runs)));
  } finally {
    await remove();
  }
  rows.push(await visibilityRow(runs));
  rows.push(
    row(
      FIGURE,
      "cancel latency (other process → child's run ends)",
      "ms",
      await measureCancelLatency(options.cancelRuns ?? 5),
      {
        goal: { max: 1000 },
        note: "a child waiting on its model call; another process sets cancelRequested (requestCancel, as `agentry tasks cancel`); from the start of that write to the child's agent_end. The owner polls every cancelPollMs (default 250 ms).",
      },
    ),
  );
  return rows;
}

/**
 * `agentry tasks list` in a new process, as the installed package runs it (the goal) and as this
 * checkout runs it from its sources, and the store's list() alone in a new process (its share).
 */
async function listRows(
  workspace: string,
  total: number,
  runs: number,
  packageBin: string | undefined,
): Promise<Row[]> {
  const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: workspace, NO_COLOR: "1" };
  const installed =
    packageBin === undefined ? await installPacked() : { bin: packageBin, remove: async () => {} };
  try {
    const list = (bin: string) => async () =>
      expectSuccess(await runNode([bin, "tasks", "list", "-C", workspace], { env }), "agentry tasks list").ms;
    const packaged = list(installed.bin);
    const checkout = list(BIN);
    // Warm-up rounds: the OS's file cache, and the compile cache (bin/agentry.js turns it on) filled once.
    await packaged();
    await checkout();
    await runNode([LIST_MAIN, workspace], { env });
    const packagedMs: number[] = [];
    const checkoutMs: number[] = [];
    const storeProcess: number[] = [];
    const listCall: number[] = [];
    for (let i = 0; i < runs; i++) {
      packagedMs.push(await packaged());
      checkoutMs.push(await checkout());
      const result = expectSuccess(await runNode([LIST_MAIN, workspace], { env }), "store-list-main");
      const printed = JSON.parse(result.stdout) as { count: number; listMs: number };
      if (printed.count !== total) throw new Error(`task store: listed ${printed.count} of ${total} records`);
      storeProcess.push(result.ms);
      listCall.push(printed.listMs);
    }
    return [
      row(FIGURE, `agentry tasks list, ${total} records (installed package)`, "ms", packagedMs, {
        goal: { max: 200 },
        note: `spawn → exit of \`agentry tasks list -C <workspace>\` (a table of the newest 50) from the packed and installed package (its bundle; see start-up); ${total} records in 100 files, 99% finished. It reads and checks every record once, fails the orphans among them (none here: the running ones have a live owner and a fresh heartbeat), then prints.`,
      }),
      row(FIGURE, "agentry tasks list (checkout: src/*.ts)", "ms", checkoutMs, {
        note: "informative: the same command run by this checkout's bin/agentry.js from the TypeScript sources.",
      }),
      row(FIGURE, `store list() of ${total} records in a new process`, "ms", storeProcess, {
        note: "spawn → exit of a Node process that imports the store and runs WorkspaceTaskStore.list() once (cold cache: read, parse and check every record).",
      }),
      row(FIGURE, "…of which the list() call", "ms", listCall),
    ];
  } finally {
    await installed.remove();
  }
}

/** The old micro-benchmark: warm reads and one update in this process. */
async function inProcessRows(workspace: string, lastId: string, runs: number): Promise<Row[]> {
  const store = new WorkspaceTaskStore({ workspace });
  await store.list(); // fills the cache
  const time = async (run: () => Promise<unknown>) => {
    const samples: number[] = [];
    for (let i = 0; i < runs; i++) {
      const started = performance.now();
      await run();
      samples.push(performance.now() - started);
    }
    return samples;
  };
  return [
    row(FIGURE, "list() warm, same process", "ms", await time(() => store.list()), {
      note: "informative (was test/tasks/support/list-bench.ts): the read cache revalidates each file with one stat.",
    }),
    row(
      FIGURE,
      "list({ status: RUNNING, limit: 10 }) warm",
      "ms",
      await time(() => store.list({ status: "RUNNING", limit: 10 })),
    ),
    row(FIGURE, "get(id) warm", "ms", await time(() => store.get(lastId))),
    row(
      FIGURE,
      "update(id): lock, read, write, fsync one file",
      "ms",
      await time(() => store.update(lastId, { description: `touched ${Date.now()}` })),
    ),
  ];
}

/** A status change written here, seen by a watcher process polling the store. */
async function visibilityRow(runs: number): Promise<Row> {
  const { dir, remove } = await tempDir("visibility");
  const store = new WorkspaceTaskStore({ workspace: dir });
  const base = {
    agentType: "explore",
    parentAgentId: "main",
    parentSessionId: "session-1",
    description: "watched",
    owner: "bench:0",
    background: true,
  };
  for (let i = 0; i < 16; i++)
    await store.create({ ...base, taskId: `sub-${i}`, childSessionId: `sub-${i}` });
  const watcher = spawn(process.execPath, [WATCH_MAIN, dir, "sub-7", String(WATCH_POLL_MS)], {
    stdio: ["pipe", "pipe", "inherit"],
  });
  const lines = createInterface({ input: watcher.stdout });
  const next = () =>
    new Promise<string>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error("visibility: the watcher saw no change within 5 s")),
        5000,
      );
      lines.once("line", (line) => {
        clearTimeout(timer);
        resolve(line);
      });
    });
  try {
    await next(); // "ready"
    const samples: number[] = [];
    for (let i = 0; i < runs; i++) {
      const status = i % 2 === 0 ? "RUNNING" : "COMPLETED";
      const seen = next();
      const started = performance.timeOrigin + performance.now();
      await store.update("sub-7", { status }, { resume: status === "RUNNING" });
      const { at } = JSON.parse(await seen) as { at: number };
      samples.push(at - started);
      await sleep(50);
    }
    return row(FIGURE, "status change seen by another process", "ms", samples, {
      goal: { max: 200 },
      note: `from the start of update() in this process to a watcher process (WorkspaceTaskStore.get every ${WATCH_POLL_MS} ms) seeing the new status; includes the locked, fsync'd write.`,
    });
  } finally {
    watcher.stdin.end();
    await new Promise((resolve) => watcher.once("exit", resolve));
    await remove();
  }
}

await benchMain(import.meta, measureTaskStore);
