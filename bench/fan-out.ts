// Fan-out efficiency: N children started in one assistant message, each making K tool calls, every
// model reply delayed by the same latency at the test model server (real Anthropic adapter and SSE,
// through the model limiter as `agentry run` wires it). Wall time ÷ ideal, where ideal is the model
// latency alone at the concurrency cap (the lower of the running-children cap and the limiter's
// ceiling): (parent turns + ceil(N / cap) × (K + 1) child turns) × latency.
//   node bench/fan-out.ts [--runs 5]
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { runAgentLoop } from "../src/agent/loop.ts";
import { Session } from "../src/agent/session/session.ts";
import type { AgentEvent } from "../src/contracts/events.ts";
import { DEFAULT_LIMITER_OPTIONS } from "../src/model/adaptive-limiter.ts";
import { userText } from "../src/model/messages.ts";
import { ModelLimiters } from "../src/model/model-limiters.ts";
import { DEFAULT_SUBAGENT_LIMITS } from "../src/subagents/tree/limits.ts";
import { type BenchArgs, benchMain } from "./support/bench-main.ts";
import type { FanOutScriptArgs } from "./support/fan-out-script.ts";
import { type Row, row } from "./support/row.ts";
import { startServerProcess } from "./support/server-process.ts";
import { summarize } from "./support/stats.ts";
import { serverModel, subagentTree } from "./support/subagent-tree.ts";
import { tempDir } from "./support/temp-dir.ts";

export interface FanOutOptions extends BenchArgs {
  /** Children per message (default 1, 4, 16, 64). */
  sizes?: number[];
  /** Tool calls per child, one per turn (default 5). */
  calls?: number;
  /** Delay of every model reply (default 200 ms). */
  latencyMs?: number;
  /** Size of the untimed warm-up fan-out (default 2; 0 skips it). */
  warmup?: number;
}

/** One fan-out: the root's wall time, and where a child's time goes (medians over its children). */
interface FanOutRun {
  wallMs: number;
  /** From the root's assistant message with the task calls to a first-wave child's first turn. */
  spawnMs: number;
  /** A child's model call as its loop sees it (the server waits `latencyMs` of it). */
  modelCallMs: number;
  /** From a child's assistant message with a tool call to its next turn (the tool, the transcript). */
  betweenTurnsMs: number;
}

const FIGURE = "fan-out efficiency";
const PARENT_TURNS = 2;
/** Children whose model calls run at once: the running-children cap or the limiter's ceiling. */
const CAP = Math.min(DEFAULT_SUBAGENT_LIMITS.maxConcurrent, DEFAULT_LIMITER_OPTIONS.max);

export async function measureFanOut(options: FanOutOptions = {}): Promise<Row[]> {
  const sizes = options.sizes ?? [1, 4, 16, 64];
  const calls = options.calls ?? 5;
  const latencyMs = options.latencyMs ?? 200;
  const cap = CAP;
  const rows: Row[] = [];
  // The first fan-out of a process pays for JIT and the first connection: not what this figure is about.
  if ((options.warmup ?? 2) > 0) await fanOutOnce(options.warmup ?? 2, calls, latencyMs);
  for (const n of sizes) {
    // 64 children take ~10 s a run; fewer repetitions keep the whole suite in minutes.
    const runs = options.runs ?? (n >= 64 ? 3 : 5);
    const ideal = (PARENT_TURNS + Math.ceil(n / cap) * (calls + 1)) * latencyMs;
    const results: FanOutRun[] = [];
    for (let run = 0; run < runs; run++) results.push(await fanOutOnce(n, calls, latencyMs));
    const ratios = results.map((result) => result.wallMs / ideal);
    rows.push(
      row(FIGURE, `N = ${n} (wall ÷ ideal)`, "×", ratios, {
        ...(n === 16 ? { goal: { max: 1.1 } } : {}),
        ...(n === sizes[0]
          ? {
              note: `K = ${calls} tool calls (read) per child, ${latencyMs} ms per model reply, cap ${cap}; ideal = (${PARENT_TURNS} + ceil(N/${cap}) × ${calls + 1}) × ${latencyMs} ms; real Anthropic adapter over HTTP/SSE, persisted transcripts and TaskRecords.`,
            }
          : {}),
      }),
    );
    if (n === 16) {
      const of = (pick: (run: FanOutRun) => number) => results.map(pick);
      rows.push(
        row(
          FIGURE,
          `N = 16: task call → child's first turn (first ${Math.min(16, CAP)})`,
          "ms",
          of((r) => r.spawnMs),
          {
            note: "where the N = 16 overhead goes (medians over the children of each run): before its first model call a child's TaskRecord is created (RUNNING when a slot is free, else PENDING and set RUNNING when one frees) — a locked, fsync'd write of the parent's task file, batched across children.",
          },
        ),
        row(
          FIGURE,
          "N = 16: a child's model call seen by its loop",
          "ms",
          of((r) => r.modelCallMs),
          {
            note: `the server waits ${latencyMs} ms; the rest is HTTP, SSE and the AI SDK, whose ~2.5 ms of CPU per call the 16 children running at once queue for on one thread.`,
          },
        ),
        row(
          FIGURE,
          "N = 16: a child's tool call and turn change",
          "ms",
          of((r) => r.betweenTurnsMs),
        ),
      );
    }
  }
  return rows;
}

/** One fan-out of `n` children; `observe` sees every event of the tree (the tracing figure's tracer). */
export async function fanOutOnce(
  n: number,
  calls: number,
  latencyMs: number,
  observe?: (event: AgentEvent) => void,
): Promise<FanOutRun> {
  const { dir, remove } = await tempDir("fan-out");
  const args: FanOutScriptArgs = { children: n, calls, latencyMs };
  const server = await startServerProcess(new URL("./support/fan-out-script.ts", import.meta.url), args);
  let closed = false;
  try {
    await mkdir(join(dir, "src"));
    for (let i = 0; i < calls; i++)
      await writeFile(join(dir, "src", `part-${i}.ts`), `export const part${i} = ${i};\n`.repeat(20));
    const model = serverModel(server.url, { limiters: new ModelLimiters() });
    const { config, runtime } = subagentTree({ workspace: dir, model });
    const session = await Session.create({ workspace: dir, agentName: "main", model: config.model.id });
    await session.append(userText(`Explore the ${n} parts of this project, one subagent each.`));
    const timeline = new Timeline();
    const started = performance.now();
    const outcome = await runAgentLoop(config, session, (event) => {
      timeline.note(event);
      observe?.(event);
    });
    const wall = performance.now() - started;
    await runtime.shutdown();
    if (outcome.status !== "completed") throw new Error(`fan-out N=${n}: the root ended ${outcome.status}`);
    closed = true;
    const { childCalls } = (await server.close()) as { childCalls: number };
    if (childCalls !== n * (calls + 1))
      throw new Error(`fan-out N=${n}: expected ${n * (calls + 1)} child model calls, saw ${childCalls}`);
    return { wallMs: wall, ...timeline.summary() };
  } finally {
    if (!closed) await server.close();
    await remove();
  }
}

/** Times of the events that tell where a child's time goes. */
class Timeline {
  private rootCalled = 0;
  private readonly spawn: number[] = [];
  private readonly model: number[] = [];
  private readonly between: number[] = [];
  private readonly turnStart = new Map<string, number>();
  private readonly toolAsked = new Map<string, number>();

  note(event: AgentEvent): void {
    const now = performance.now();
    const path = event.agentPath.join("/");
    if (event.agentPath.length === 1) {
      if (event.type === "assistant_message" && this.rootCalled === 0) this.rootCalled = now;
      return;
    }
    if (event.type === "agent_start") this.spawn.push(now - this.rootCalled);
    if (event.type === "turn_start") {
      const asked = this.toolAsked.get(path);
      if (asked !== undefined) this.between.push(now - asked);
      this.toolAsked.delete(path);
      this.turnStart.set(path, now);
    }
    if (event.type === "assistant_message") {
      const start = this.turnStart.get(path);
      if (start !== undefined) this.model.push(now - start);
      if (event.message.content.some((part) => part.type === "tool_call")) this.toolAsked.set(path, now);
    }
  }

  summary(): Omit<FanOutRun, "wallMs"> {
    const median = (values: number[]) => (values.length === 0 ? Number.NaN : summarize(values).median);
    return {
      // Children past the concurrency cap wait for a slot by design: only the first wave shows spawn cost.
      spawnMs: median(this.spawn.slice(0, CAP)),
      modelCallMs: median(this.model),
      betweenTurnsMs: median(this.between),
    };
  }
}

await benchMain(import.meta, measureFanOut);
