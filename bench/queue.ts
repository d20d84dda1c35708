// Queued children (BullMQ on a local redis-server): the queue's overhead per child beyond the model's
// time, the throughput of many short children over several worker processes, and how soon a cancel
// reaches a child on a worker.
//   node bench/queue.ts [--runs 30]
import { randomBytes } from "node:crypto";
import { Job } from "bullmq";
import { FleetClient } from "../src/queue/parent/fleet-client.ts";
import { queueExecutor } from "../src/queue/parent/queue-executor.ts";
import type { ChildExecutor } from "../src/subagents/run/executor.ts";
import { inProcessExecutor } from "../src/subagents/run/in-process-executor.ts";
import { testLocalChild } from "../test/support/local-child.ts";
import { type BenchArgs, benchMain } from "./support/bench-main.ts";
import { instantModel } from "./support/instant-model.ts";
import { CANCEL_PROMPT } from "./support/queue-cancel.ts";
import { type BenchWorker, startBenchWorker } from "./support/queue-workers.ts";
import { startRedis } from "./support/redis.ts";
import { type Row, row } from "./support/row.ts";
import { tempDir } from "./support/temp-dir.ts";

export interface QueueOptions extends BenchArgs {
  /** Children in the throughput run (default 200), over `workers` processes (default 4). */
  children?: number;
  workers?: number;
  /** Runs of the throughput measurement (default 3). */
  throughputRuns?: number;
  /** Cancels measured (default 5). */
  cancelRuns?: number;
}

const FIGURE = "queue (BullMQ)";

export async function measureQueue(options: QueueOptions = {}): Promise<Row[]> {
  const runs = options.runs ?? 30;
  const children = options.children ?? 200;
  const workerCount = options.workers ?? 4;
  const { dir, remove } = await tempDir("queue");
  const redis = await startRedis(dir);
  const queue = `bench-${randomBytes(4).toString("hex")}`;
  const workers: BenchWorker[] = [];
  const client = await FleetClient.open({ url: redis.url, queue });
  try {
    await client.ready();
    const model = instantModel(() => ({ text: "done" }));
    // Overhead: one child at a time, its model instant; the same child in this process is the baseline.
    workers.push(await startBenchWorker(redis.url, queue, 1));
    const local = async () => testLocalChild(model, dir);
    const inProcess = await timeChildren(async () => inProcessExecutor(await local(), () => {}), runs);
    const queued = await timeChildren(async () => queueExecutor(await local(), client), runs);
    const baseline = median(inProcess);
    const cancels = await timeCancels(
      client,
      async () => queueExecutor(await local(), client),
      options.cancelRuns ?? 5,
    );
    // Throughput: every child at once over `workerCount` processes.
    for (let i = 1; i < workerCount; i++) workers.push(await startBenchWorker(redis.url, queue, 1));
    const rates: number[] = [];
    for (let run = 0; run < (options.throughputRuns ?? 3); run++) {
      const executors = await Promise.all(
        Array.from({ length: children }, async () => queueExecutor(await local(), client)),
      );
      const started = performance.now();
      const outcomes = await Promise.all(executors.map((executor) => executor.start(input()).done));
      const seconds = (performance.now() - started) / 1000;
      const failed = outcomes.filter((result) => result.outcome.status !== "completed");
      if (failed.length > 0)
        throw new Error(`${failed.length} children did not complete: ${JSON.stringify(failed[0])}`);
      rates.push(children / seconds);
    }
    return [
      row(
        FIGURE,
        "overhead per child beyond the model (median)",
        "ms",
        // A queued child does all an in-process one does and more: a run below the baseline's median is
        // the machine's noise, counted as no overhead rather than a negative one.
        queued.map((ms) => Math.max(0, ms - baseline)),
        {
          goal: { max: 20 },
          note: `Start to result of one child through the queue (job added, taken by a worker process, events streamed back over pub/sub, result read) minus the same child run in this process (median ${baseline.toFixed(2)} ms); the model answers at once; redis-server on loopback; ${runs} children one after another.`,
        },
      ),
      row(FIGURE, "cancel latency (parent's abort → its job ended on the worker)", "ms", cancels, {
        goal: { max: 2000 },
        note: "A child waiting in its model call on a worker process; the parent aborts it (as a task_cancel, or `agentry tasks cancel` reaching its owner, does): from the abort to its job finished on the worker (BullMQ's completion event), after the child there ended. docs/fleet.md says a cancel reaches the child on its worker within 2 s.",
      }),
      row(FIGURE, `throughput, ${children} children over ${workerCount} workers`, "children/s", rates, {
        note: `${children} one-turn children started at once, ${workerCount} worker processes (concurrency 1 each, on this machine's CPUs), one parent process.`,
      }),
    ];
  } finally {
    await client.close();
    for (const worker of workers) worker.stop();
    await redis.stop();
    await remove();
  }
}

async function timeChildren(make: () => Promise<ChildExecutor>, runs: number): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; i < runs + 3; i++) {
    const executor = await make();
    const started = performance.now();
    const { outcome } = await executor.start(input()).done;
    const elapsed = performance.now() - started;
    if (outcome.status !== "completed")
      throw new Error(`a child ended ${outcome.status}: ${JSON.stringify(outcome)}`);
    if (i >= 3) samples.push(elapsed); // the first ones warm up connections and the JIT
  }
  return samples;
}

/** ms from a parent's abort to the end of its child's job, the child waiting in its model call on a worker. */
async function timeCancels(
  client: FleetClient,
  make: () => Promise<ChildExecutor>,
  runs: number,
): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const executor = await make();
    const controller = new AbortController();
    let turnStarted = () => {};
    const working = new Promise<void>((resolve) => {
      turnStarted = resolve;
    });
    const activation = executor.start({
      ...input(),
      prompt: CANCEL_PROMPT,
      signal: controller.signal,
      emit: (event) => {
        if (event.type === "turn_start") turnStarted();
      },
    });
    await working;
    const job = await Job.fromId(client.queue, activation.ref?.kind === "queue" ? activation.ref.jobId : "");
    if (!job) throw new Error("the cancelled child's job is not in the queue");
    const started = performance.now();
    controller.abort("cancelled by its parent (bench)");
    await job.waitUntilFinished(client.events, 30_000);
    samples.push(performance.now() - started);
    const { outcome } = await activation.done;
    if (outcome.status !== "aborted") throw new Error(`a cancelled child ended ${outcome.status}`);
  }
  return samples;
}

function input() {
  return { prompt: "Which test runner?", messages: [], signal: new AbortController().signal, emit: () => {} };
}

function median(samples: readonly number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

await benchMain(import.meta, measureQueue);
