// Wide fan-out: N children started in one assistant message (N = 3 as the reference, then 12, 32,
// 64), each making K reads, every model reply 300 ms to its first byte at the test model server (in
// its own process), reached through the real Anthropic adapter and the per-endpoint model limiter
// `agentry run` wires (ModelLimiters, default bounds) with the default retries. Then 64 children
// against a server that, like a provider at its limit, answers only 10 requests at once and refuses the
// rest with 429 and `retry-after: 1`, and 32 against one that takes 5 ("fan-out under a 5-slot
// provider": the limiter starts at 16 and must learn 5 in one round).
//   node bench/fan-out-wide.ts [--runs 3]
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { runAgentLoop } from "../src/agent/loop.ts";
import { Session } from "../src/agent/session/session.ts";
import { DEFAULT_LIMITER_OPTIONS } from "../src/model/adaptive-limiter.ts";
import { userText } from "../src/model/messages.ts";
import { ModelLimiters } from "../src/model/model-limiters.ts";
import { DEFAULT_RETRY } from "../src/model/retry.ts";
import { type BenchArgs, benchMain } from "./support/bench-main.ts";
import type { FanOutScriptArgs, FanOutSummary } from "./support/fan-out-script.ts";
import { type Row, row } from "./support/row.ts";
import { startServerProcess } from "./support/server-process.ts";
import { summarize } from "./support/stats.ts";
import { serverModel, subagentTree } from "./support/subagent-tree.ts";
import { tempDir } from "./support/temp-dir.ts";

export interface WideFanOutOptions extends BenchArgs {
  /** Children per message; the first is the reference the others are compared with (default 3, 12, 32, 64). */
  sizes?: number[];
  /** Tool calls per child, one per turn (default 5). */
  calls?: number;
  /** Delay of every model reply (default 300 ms). */
  latencyMs?: number;
  /**
   * The capacity runs: so many children against a server that takes `maxInFlight` at once (default
   * 64 against 10, and 32 against 5: "fan-out under a 5-slot provider").
   */
  capacity?: Array<{ children: number; maxInFlight: number }> | false;
  /** Size of the untimed warm-up fan-out (default 2; 0 skips it). */
  warmup?: number;
}

interface FanOutResult {
  wallMs: number;
  summary: FanOutSummary;
  /** The limit of the one endpoint when the run ended. */
  limit: number;
}

const FIGURE = "wide fan-out";
const PARENT_TURNS = 2;
/** Refusals after this long count as "after the first seconds". */
const SETTLED_AFTER_MS = 3_000;

export async function measureWideFanOut(options: WideFanOutOptions = {}): Promise<Row[]> {
  const sizes = options.sizes ?? [3, 12, 32, 64];
  const calls = options.calls ?? 5;
  const latencyMs = options.latencyMs ?? 300;
  const rows: Row[] = [];
  if ((options.warmup ?? 2) > 0)
    await fanOutOnce({ children: options.warmup ?? 2, calls, latencyMs: Math.min(latencyMs, 50) });

  const walls = new Map<number, number[]>();
  for (const n of sizes) {
    const runs = options.runs ?? (n >= 64 ? 3 : 5);
    const results: FanOutResult[] = [];
    for (let run = 0; run < runs; run++) results.push(await fanOutOnce({ children: n, calls, latencyMs }));
    const samples = results.map((result) => result.wallMs / 1000);
    walls.set(n, samples);
    rows.push(
      row(FIGURE, `N = ${n}: wall`, "s", samples, {
        ...(n === sizes[0]
          ? {
              note: `K = ${calls} reads per child, ${latencyMs} ms to each reply's first byte, real Anthropic adapter over HTTP/SSE with the model limiter of agentry run (starts at ${DEFAULT_LIMITER_OPTIONS.initial}, at most ${DEFAULT_LIMITER_OPTIONS.max} calls in flight) and ${DEFAULT_RETRY.maxRetries} retries; model latency alone is (${PARENT_TURNS} + ${calls + 1}) × ${latencyMs} ms = ${((PARENT_TURNS + calls + 1) * latencyMs) / 1000} s while all children fit in the limit.`,
            }
          : {}),
      }),
    );
  }
  const reference = sizes[0];
  const base = reference === undefined ? undefined : walls.get(reference);
  if (base !== undefined && reference !== undefined) {
    const median = summarize(base).median;
    for (const n of sizes.slice(1)) {
      rows.push(
        row(
          FIGURE,
          `N = ${n} ÷ N = ${reference} (wall)`,
          "×",
          (walls.get(n) ?? []).map((wall) => wall / median),
          n === 32 ? { goal: { max: 1.25 } } : {},
        ),
      );
    }
  }

  if (options.capacity !== false)
    for (const capacity of options.capacity ?? DEFAULT_CAPACITY)
      rows.push(...(await measureCapacity(capacity, options.runs, calls, latencyMs)));
  return rows;
}

const DEFAULT_CAPACITY = [
  { children: 64, maxInFlight: 10 },
  { children: 32, maxInFlight: 5 },
];

/** Children against a provider that takes fewer at once: all must complete; the 429s stop once learned. */
async function measureCapacity(
  { children, maxInFlight }: { children: number; maxInFlight: number },
  runs = 3,
  calls: number,
  latencyMs: number,
): Promise<Row[]> {
  const ideal = (PARENT_TURNS + Math.ceil((children * (calls + 1)) / maxInFlight)) * latencyMs;
  const results: FanOutResult[] = [];
  for (let run = 0; run < runs; run++) {
    results.push(await fanOutOnce({ children, calls, latencyMs, maxInFlight, retryAfterSeconds: 1 }));
  }
  const label = `N = ${children}, server takes ${maxInFlight} at once`;
  return [
    row(
      FIGURE,
      `${label}: wall ÷ ideal`,
      "×",
      results.map((result) => result.wallMs / ideal),
      {
        goal: { max: 1.3 },
        note: `ideal = (${PARENT_TURNS} + ceil(${children} × ${calls + 1} / ${maxInFlight})) × ${latencyMs} ms = ${ideal / 1000} s: model latency alone at ${maxInFlight} calls in flight; the server answers 429 with retry-after: 1 beyond ${maxInFlight} (test/support/capacity-fault.ts). Every child completed in every run.`,
      },
    ),
    row(
      FIGURE,
      `${label}: 429s`,
      "",
      results.map((result) => result.summary.refusedAtMs.length),
    ),
    row(
      FIGURE,
      `${label}: 429s after the first ${SETTLED_AFTER_MS / 1000} s`,
      "",
      results.map((result) => result.summary.refusedAtMs.filter((at) => at > SETTLED_AFTER_MS).length),
    ),
    row(
      FIGURE,
      `${label}: limit at the end`,
      "",
      results.map((result) => result.limit),
    ),
  ];
}

/** One fan-out; throws unless the root and every child completed and every child call was answered. */
async function fanOutOnce(args: FanOutScriptArgs): Promise<FanOutResult> {
  const { dir, remove } = await tempDir("fan-out-wide");
  const server = await startServerProcess(new URL("./support/fan-out-script.ts", import.meta.url), args);
  let closed = false;
  try {
    await mkdir(join(dir, "src"));
    for (let i = 0; i < args.calls; i++)
      await writeFile(join(dir, "src", `part-${i}.ts`), `export const part${i} = ${i};\n`.repeat(20));
    const limiters = new ModelLimiters();
    const model = serverModel(server.url, { limiters, retries: DEFAULT_RETRY.maxRetries });
    const { config, runtime } = subagentTree({ workspace: dir, model });
    const session = await Session.create({ workspace: dir, agentName: "main", model: config.model.id });
    await session.append(userText(`Explore the ${args.children} parts of this project, one subagent each.`));
    const failures: string[] = [];
    const started = performance.now();
    const outcome = await runAgentLoop(config, session, (event) => {
      if (event.type === "agent_end" && event.agentPath.length > 1 && event.outcome.status !== "completed")
        failures.push(`${event.agentPath.join("/")}: ${event.outcome.status}`);
    });
    const wallMs = performance.now() - started;
    await runtime.shutdown();
    const label = `wide fan-out N=${args.children}${args.maxInFlight ? ` (server takes ${args.maxInFlight})` : ""}`;
    if (outcome.status !== "completed") throw new Error(`${label}: the root ended ${outcome.status}`);
    if (failures.length > 0) throw new Error(`${label}: children failed: ${failures.join("; ")}`);
    closed = true;
    const summary = (await server.close()) as FanOutSummary;
    const expected = args.children * (args.calls + 1);
    if (summary.childCalls !== expected)
      throw new Error(`${label}: expected ${expected} answered child calls, saw ${summary.childCalls}`);
    return { wallMs, summary, limit: limiters.list()[0]?.state.limit ?? 0 };
  } finally {
    if (!closed) await server.close();
    await remove();
  }
}

await benchMain(import.meta, measureWideFanOut);
