// `agentry serve`'s memory over many tasks: the real command in its own process (the model server in
// another, answering at once), driven by the official SDK client through the printed URL, one task
// after another, each in a new A2A context (a new conversation). After a warm-up and after each further
// 1,000 tasks, a full garbage collection in the server (through its inspector) and two readings: the
// heap in use, and RSS (VmRSS). The heap kept per 1,000 tasks is what a long-running server keeps of
// each task; RSS follows V8's heap sizing, which grows in steps whatever is kept.
//   node bench/serve-memory.ts [--runs 1]
import { type ChildProcess, spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Role, TaskState } from "@a2a-js/sdk";
import type { Client } from "@a2a-js/sdk/client";
import { sdkClientFactory } from "../test/support/a2a-serve.ts";
import { type BenchArgs, benchMain } from "./support/bench-main.ts";
import { Inspector, inspectorUrl } from "./support/inspector.ts";
import { type Row, row } from "./support/row.ts";
import { startServerProcess } from "./support/server-process.ts";
import { tempDir } from "./support/temp-dir.ts";

export interface ServeMemoryOptions extends BenchArgs {
  /** Tasks before the first reading (default 100). */
  warmup?: number;
  /** Tasks between readings (default 1,000). */
  tasks?: number;
  /** Readings after the warm-up's (default 1: each round of 1,000 tasks takes a minute or more). */
  rounds?: number;
}

interface Reading {
  heapMb: number;
  rssMb: number;
}

const FIGURE = "serve memory";
const TOKEN = "bench-token-0123456789abcdef";
const BIN = fileURLToPath(new URL("../bin/agentry.js", import.meta.url));
const MB = 1024 * 1024;

export async function measureServeMemory(options: ServeMemoryOptions = {}): Promise<Row[]> {
  const runs = options.runs ?? 1;
  const warmup = options.warmup ?? 100;
  const tasks = options.tasks ?? 1_000;
  const rounds = options.rounds ?? 1;
  const results: Reading[][] = [];
  for (let run = 0; run < runs; run++) results.push(await serveOnce(warmup, tasks, rounds));
  const at = (index: number, pick: (reading: Reading) => number) =>
    results.map((readings) => pick(readings[index] ?? { heapMb: Number.NaN, rssMb: Number.NaN }));
  const per = tasks.toLocaleString("en");
  const rows: Row[] = [
    row(
      FIGURE,
      `heap after ${warmup} tasks`,
      "MB",
      at(0, (r) => r.heapMb),
      {
        note: `agentry serve (checkout sources, Anthropic adapter) against a model server in its own process that answers at once; the official SDK client sends each task as a new A2A context through the printed URL and waits for COMPLETED; readings after a full GC in the server (its inspector): heap in use, and RSS (/proc/<pid>/status VmRSS).`,
      },
    ),
    row(
      FIGURE,
      `RSS after ${warmup} tasks`,
      "MB",
      at(0, (r) => r.rssMb),
    ),
  ];
  for (let round = 1; round <= rounds; round++) {
    const done = warmup + round * tasks;
    // At least 0: a round that ends with less than it began kept nothing.
    const kept = results.map((readings) =>
      Math.max(0, (readings[round]?.heapMb ?? Number.NaN) - (readings[round - 1]?.heapMb ?? Number.NaN)),
    );
    const grown = results.map((readings) =>
      Math.max(0, (readings[round]?.rssMb ?? Number.NaN) - (readings[round - 1]?.rssMb ?? Number.NaN)),
    );
    rows.push(
      row(
        FIGURE,
        `heap kept per ${per} tasks (to ${done})`,
        "MB",
        kept,
        round === rounds ? { goal: { max: 5 } } : {},
      ),
      row(
        FIGURE,
        `RSS growth per ${per} tasks (to ${done})`,
        "MB",
        grown,
        round === rounds ? { goal: { max: 20 } } : {},
      ),
    );
  }
  rows.push(
    row(
      FIGURE,
      `RSS after ${warmup + rounds * tasks} tasks`,
      "MB",
      at(rounds, (r) => r.rssMb),
    ),
  );
  return rows;
}

/** Readings after the warm-up and after each round of `tasks`. */
async function serveOnce(warmup: number, tasks: number, rounds: number): Promise<Reading[]> {
  const { dir, remove } = await tempDir("serve-memory");
  const model = await startServerProcess(new URL("./support/answer-script.ts", import.meta.url), {
    text: "done",
  });
  const workspace = join(dir, "project");
  const home = join(dir, "home");
  await mkdir(workspace);
  await mkdir(home);
  const serve = spawn(process.execPath, ["--inspect=127.0.0.1:0", BIN, "serve", "--port", "0"], {
    cwd: workspace,
    env: {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      HOME: home,
      NO_COLOR: "1",
      ANTHROPIC_BASE_URL: model.url,
      ANTHROPIC_API_KEY: "bench-key",
      AGENTRY_SERVE_TOKEN: TOKEN,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let inspector: Inspector | undefined;
  try {
    const { url, debug } = await started(serve, "explore");
    inspector = await Inspector.connect(debug);
    const client = await sdkClientFactory(TOKEN).createFromUrl(url);
    const read = async (): Promise<Reading> => ({
      heapMb: (await inspector!.heapAfterGc()) / MB,
      rssMb: await rssMb(serve),
    });
    await sendTasks(client, warmup);
    const readings = [await read()];
    for (let round = 0; round < rounds; round++) {
      await sendTasks(client, tasks);
      readings.push(await read());
    }
    return readings;
  } finally {
    inspector?.close();
    serve.kill("SIGTERM");
    if (serve.exitCode === null) await new Promise((resolve) => serve.once("exit", resolve));
    await model.close();
    await remove();
  }
}

async function sendTasks(client: Client, count: number): Promise<void> {
  for (let i = 0; i < count; i++) {
    const task = await client.sendMessage({
      tenant: "",
      message: {
        messageId: randomUUID(),
        contextId: randomUUID(),
        taskId: "",
        role: Role.ROLE_USER,
        parts: [
          {
            content: { $case: "text", value: `task ${i}` },
            metadata: undefined,
            filename: "",
            mediaType: "",
          },
        ],
        metadata: undefined,
        extensions: [],
        referenceTaskIds: [],
      },
      configuration: undefined,
      metadata: undefined,
    });
    if (!("id" in task) || task.status?.state !== TaskState.TASK_STATE_COMPLETED)
      throw new Error(`serve memory: task ${i} ended ${JSON.stringify("id" in task ? task.status : task)}`);
  }
}

/** The agent's printed URL and the inspector's, once serve is up. */
function started(serve: ChildProcess, name: string): Promise<{ url: string; debug: string }> {
  return new Promise((resolve, reject) => {
    let stdout = "";
    let stderr = "";
    const check = () => {
      const url = new RegExp(`^${name}\\t(\\S+)$`, "m").exec(stdout)?.[1];
      const debug = inspectorUrl(stderr);
      if (url !== undefined && debug !== undefined) resolve({ url, debug });
    };
    serve.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
      check();
    });
    serve.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
      check();
    });
    serve.once("exit", (code) => reject(new Error(`agentry serve exited with ${code}: ${stderr.trim()}`)));
  });
}

async function rssMb(serve: ChildProcess): Promise<number> {
  const status = await readFile(`/proc/${serve.pid}/status`, "utf8");
  const kb = Number(/^VmRSS:\s+(\d+)\s+kB$/m.exec(status)?.[1]);
  if (!Number.isFinite(kb)) throw new Error("serve memory: no VmRSS in /proc (Linux only)");
  return kb / 1024;
}

await benchMain(import.meta, measureServeMemory);
