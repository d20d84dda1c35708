// A killed worker's children (BullMQ on a local redis-server, the default lock and stalled check):
// how long from `kill -9` of the worker running a child to that child's result at its parent (it starts
// again on another worker), and how many children lose their lock to a false stall while the machine's
// CPUs are loaded 4× (stress-ng), which would run them again.
//   node bench/worker-kill.ts [--runs 5]
import { spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { availableParallelism } from "node:os";
import { Job } from "bullmq";
import { DEFAULT_LOCK_MS, DEFAULT_STALLED_INTERVAL_MS } from "../src/queue/fleet-keys.ts";
import { FleetClient } from "../src/queue/parent/fleet-client.ts";
import { queueExecutor } from "../src/queue/parent/queue-executor.ts";
import type { Activation } from "../src/subagents/run/executor.ts";
import { testLocalChild } from "../test/support/local-child.ts";
import { type BenchArgs, benchMain } from "./support/bench-main.ts";
import { instantModel } from "./support/instant-model.ts";
import { startBenchWorker } from "./support/queue-workers.ts";
import { startRedis } from "./support/redis.ts";
import { type Row, row } from "./support/row.ts";
import { tempDir } from "./support/temp-dir.ts";

export interface WorkerKillOptions extends BenchArgs {
  /** Children run at once under load, over two workers (default 8), and how long each takes (default 8 s). */
  loadedChildren?: number;
  loadedChildMs?: number;
  /** stress-ng's CPU workers per core while they run (default 4; the suite's test of this file: 1). */
  loadPerCore?: number;
}

const FIGURE = "worker kill (BullMQ)";

export async function measureWorkerKill(options: WorkerKillOptions = {}): Promise<Row[]> {
  const runs = options.runs ?? 5;
  const { dir, remove } = await tempDir("worker-kill");
  const redis = await startRedis(dir);
  const queue = `bench-${randomBytes(4).toString("hex")}`;
  const client = await FleetClient.open({ url: redis.url, queue });
  const model = instantModel(() => ({ text: "unused here: the workers answer" }));
  const start = async (): Promise<Activation> =>
    queueExecutor(await testLocalChild(model, dir), client).start({
      prompt: "Which test runner?",
      messages: [],
      signal: new AbortController().signal,
      emit: () => {},
    });
  try {
    await client.ready();
    const recovery: number[] = [];
    for (let run = 0; run < runs; run++) {
      // The child's worker never answers: it is killed mid-child; another, idle, takes it up.
      const victim = await startBenchWorker(redis.url, queue, 1, "hang");
      const activation = await start();
      while ((await client.queue.getActiveCount()) === 0) await pause(20);
      const rescuer = await startBenchWorker(redis.url, queue, 1);
      const killedAt = performance.now();
      victim.stop("SIGKILL");
      const { outcome } = await activation.done;
      recovery.push((performance.now() - killedAt) / 1000);
      rescuer.stop();
      if (outcome.status !== "completed") throw new Error(`the child ended ${JSON.stringify(outcome)}`);
    }
    const stalls = hasStressNg() ? await falseStalls(options, redis.url, queue, start, client) : undefined;
    if (stalls === undefined)
      process.stderr.write(
        "worker-kill: stress-ng is not installed (Debian package stress-ng): no figure under load\n",
      );
    return [
      row(FIGURE, "a killed worker's child: kill -9 → its result (median)", "s", recovery, {
        goal: { max: 10 },
        note: `A worker killed while its child waits for the model; an idle worker takes the child up once the lock (${DEFAULT_LOCK_MS / 1000} s) ran out and a stalled check (every ${DEFAULT_STALLED_INTERVAL_MS / 1000} s) saw it; the time to the child's result at its parent. ${runs} runs.`,
      }),
      ...(stalls === undefined
        ? []
        : [
            row(
              FIGURE,
              `children that lost their lock at CPU load ${stalls.load / availableParallelism()}× the cores`,
              "children",
              stalls.samples,
              {
                goal: { max: 0 },
                note: `${stalls.children} children of ${stalls.childMs / 1000} s each at once over 2 workers (concurrency 4), with stress-ng running ${stalls.load} CPU workers on ${availableParallelism()} CPUs: children started more than once (a lock lost to a false stall).`,
              },
            ),
          ]),
    ];
  } finally {
    await client.close();
    await redis.stop();
    await remove();
  }
}

const LOAD = 4;

/** Children that lost their lock (were started more than once) while the CPUs are loaded `LOAD`×. */
async function falseStalls(
  options: WorkerKillOptions,
  url: string,
  queue: string,
  start: () => Promise<Activation>,
  client: FleetClient,
): Promise<{ samples: number[]; children: number; childMs: number; load: number }> {
  const children = options.loadedChildren ?? 8;
  const childMs = options.loadedChildMs ?? 8_000;
  const load = (options.loadPerCore ?? LOAD) * availableParallelism();
  const workers = [
    await startBenchWorker(url, queue, 4, `sleep:${childMs}`),
    await startBenchWorker(url, queue, 4, `sleep:${childMs}`),
  ];
  const stress = spawn(
    "stress-ng",
    ["--cpu", String(load), "--timeout", `${Math.ceil(childMs / 1000) * 4}s`],
    {
      stdio: "ignore",
    },
  );
  try {
    const activations = await Promise.all(Array.from({ length: children }, () => start()));
    const results = await Promise.all(activations.map((activation) => activation.done));
    const failed = results.filter((result) => result.outcome.status !== "completed");
    if (failed.length > 0)
      throw new Error(`${failed.length} children did not complete: ${JSON.stringify(failed[0])}`);
    let restarted = 0;
    for (const activation of activations) {
      const ref = activation.ref;
      const job = ref?.kind === "queue" ? await Job.fromId(client.queue, ref.jobId) : undefined;
      if ((job?.attemptsStarted ?? 1) > 1) restarted++;
    }
    return { samples: [restarted], children, childMs, load };
  } finally {
    stress.kill("SIGTERM");
    for (const worker of workers) worker.stop();
  }
}

function hasStressNg(): boolean {
  return spawnSync("sh", ["-c", "command -v stress-ng"]).status === 0;
}

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

await benchMain(import.meta, measureWorkerKill);
