// Scale: 1,000 background children alive at once. Each run is a fresh process
// (bench/support/scale-worker.ts), so its peak RSS is this figure's alone.
//   node bench/scale.ts [--runs 3]
import { fileURLToPath } from "node:url";
import { type BenchArgs, benchMain } from "./support/bench-main.ts";
import { type Row, row } from "./support/row.ts";
import type { ScaleResult } from "./support/scale-worker.ts";
import { expectSuccess, runNode } from "./support/spawn-timed.ts";

export interface ScaleOptions extends BenchArgs {
  /** Children alive at once (default 1,000). */
  children?: number;
  /** How long all of them wait on the gate together (default 3 s: a heartbeat and a dozen cancel polls). */
  holdMs?: number;
}

const FIGURE = "scale";
const WORKER = fileURLToPath(new URL("./support/scale-worker.ts", import.meta.url));

export async function measureScale(options: ScaleOptions = {}): Promise<Row[]> {
  const runs = options.runs ?? 3;
  const children = options.children ?? 1000;
  const holdMs = options.holdMs ?? 3000;
  const results: ScaleResult[] = [];
  for (let i = 0; i < runs; i++) {
    const result = expectSuccess(
      await runNode([WORKER, String(children), String(holdMs)], { env: { PATH: process.env.PATH ?? "" } }),
      "scale worker",
    );
    const parsed = JSON.parse(result.stdout) as ScaleResult;
    if (parsed.children !== children || parsed.outcome !== "completed")
      throw new Error(`scale: ${parsed.children} of ${children} children alive, root ${parsed.outcome}`);
    results.push(parsed);
  }
  const of = (pick: (result: ScaleResult) => number) => results.map(pick);
  return [
    row(
      FIGURE,
      `peak RSS, ${children} background children`,
      "MB",
      of((r) => r.peakRssMb),
      {
        goal: { max: 400 },
        note: `one root starts ${children} explore children with run_in_background in one message; each child's model call waits on one shared gate, opened ${holdMs} ms after the last one is waiting; real runtime, persisted transcripts and TaskRecords; peak = the process's maxRSS (modules included).`,
      },
    ),
    row(
      FIGURE,
      "event-loop delay p99",
      "ms",
      of((r) => r.delayP99Ms),
      {
        goal: { max: 50 },
        note: "perf_hooks.monitorEventLoopDelay (10 ms resolution) from the root's start to its end: starting, all waiting, all finishing and the notifications.",
      },
    ),
    row(
      FIGURE,
      "event-loop delay p99 while starting",
      "ms",
      of((r) => r.phaseP99Ms.starting),
    ),
    row(
      FIGURE,
      "event-loop delay p99 while all wait",
      "ms",
      of((r) => r.phaseP99Ms.alive),
    ),
    row(
      FIGURE,
      "event-loop delay p99 while finishing",
      "ms",
      of((r) => r.phaseP99Ms.finishing),
    ),
    row(
      FIGURE,
      "event-loop delay max",
      "ms",
      of((r) => r.delayMaxMs),
    ),
    row(
      FIGURE,
      `time until all ${children} wait on the model`,
      "ms",
      of((r) => r.allAliveMs),
    ),
    row(
      FIGURE,
      "RSS while all wait",
      "MB",
      of((r) => r.aliveRssMb),
    ),
  ];
}

await benchMain(import.meta, measureScale);
