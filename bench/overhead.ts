// Harness overhead: CPU time per model turn with a model that answers at once, on sessions resumed
// with 10, 100 and 1,000 messages. Each timed run takes `turns` turns (one cheap tool call each, then
// a final answer) through the real loop: request building, hooks, tool validation and execution,
// events, transcript appends.
//   node bench/overhead.ts [--runs 7]
import { z } from "zod";
import type { AgentConfig } from "../src/agent/config.ts";
import { runAgentLoop } from "../src/agent/loop.ts";
import type { Model } from "../src/model/model.ts";
import { builtinTools } from "../src/tools/builtin.ts";
import { nodeOperations } from "../src/tools/node-operations.ts";
import { defineTool } from "../src/tools/tool.ts";
import { type BenchArgs, benchMain } from "./support/bench-main.ts";
import { instantModel } from "./support/instant-model.ts";
import type { OverheadScriptArgs } from "./support/overhead-script.ts";
import { type Row, row } from "./support/row.ts";
import { startServerProcess } from "./support/server-process.ts";
import { serverModel } from "./support/subagent-tree.ts";
import { tempDir } from "./support/temp-dir.ts";
import { resumedSession } from "./support/transcript-fixture.ts";

export interface OverheadOptions extends BenchArgs {
  /** Messages in the resumed session (even numbers; default 10, 100, 1,000). */
  sizes?: number[];
  /** Turns per timed run (default 10). */
  turns?: number;
  /** Untimed runs per size before the timed ones (default 2). */
  warmup?: number;
  /** Sizes also measured through the real Anthropic adapter and HTTP (default 100, 1,000; [] skips). */
  wireSizes?: number[];
}

const FIGURE = "harness overhead";

/** A tool that does nothing but answer, so the time is the harness's, not the tool's. */
const noteTool = defineTool({
  name: "note",
  description: "Records a note.",
  schema: z.object({ text: z.string() }),
  execute: async (args) => `noted: ${args.text}`,
});

export async function measureOverhead(options: OverheadOptions = {}): Promise<Row[]> {
  const sizes = options.sizes ?? [10, 100, 1000];
  const turns = options.turns ?? 20;
  const runs = options.runs ?? 9;
  const warmup = options.warmup ?? 2;
  const { dir, remove } = await tempDir("overhead");
  try {
    const perSize = new Map<number, number[]>();
    for (const size of sizes) {
      for (let i = 0; i < warmup; i++) await timedRun(dir, size, turns);
      const samples: number[] = [];
      for (let i = 0; i < runs; i++) samples.push(await timedRun(dir, size, turns));
      perSize.set(size, samples);
    }
    const rows = sizes.map((size) =>
      row(FIGURE, `CPU per turn, ${size} messages`, "ms", perSize.get(size)!, {
        ...(size === 100 ? { goal: { max: 1 } } : {}),
        ...(size === sizes[0]
          ? {
              note: `process.cpuUsage() over runs of ${turns} turns (a no-op tool call per turn, then an answer) on a resumed, persisted session; zero-latency model at the Model contract; the built-in tools are declared. ${warmup} warm-up runs per size.`,
            }
          : {}),
      }),
    );
    for (const size of options.wireSizes ?? [100, 1000]) {
      const server = await startServerProcess(new URL("./support/overhead-script.ts", import.meta.url), {
        prefilled: size / 2 - 1,
        turns,
      } satisfies OverheadScriptArgs);
      try {
        const model = serverModel(server.url);
        for (let i = 0; i < warmup; i++) await timedRun(dir, size, turns, model);
        const samples: number[] = [];
        for (let i = 0; i < runs; i++) samples.push(await timedRun(dir, size, turns, model));
        rows.push(
          row(FIGURE, `CPU per turn, ${size} messages, Anthropic adapter`, "ms", samples, {
            note: "Informative: the same runs through createModel's Anthropic adapter (AI SDK) and HTTP/SSE to the test model server in another process; adds the conversion and serialization of the whole transcript on every call.",
          }),
        );
      } finally {
        await server.close();
      }
    }
    const small = perSize.get(100);
    const large = perSize.get(1000);
    if (small && large) {
      rows.push(
        row(
          FIGURE,
          "growth 100 → 1,000 messages",
          "×",
          large.map((value, i) => value / small[i]!),
          {
            goal: { max: 10 },
            note: "CPU per turn at 1,000 messages ÷ at 100 (paired by run); ≤ 10 means at most linear growth.",
          },
        ),
      );
    }
    return rows;
  } finally {
    await remove();
  }
}

/**
 * One run of `turns` turns on a session resumed with `size` messages; CPU ms per turn. Without
 * `model`, an instant model at the Model contract answers.
 */
async function timedRun(workspace: string, size: number, turns: number, wired?: Model): Promise<number> {
  const session = await resumedSession(workspace, size);
  let turn = 0;
  const model =
    wired ??
    instantModel(() =>
      ++turn < turns ? { toolCalls: [{ name: "note", args: { text: `turn ${turn}` } }] } : { text: "Done." },
    );
  const config: AgentConfig = {
    name: "main",
    model,
    systemPrompt: "You are a benchmark agent.",
    tools: [...builtinTools(), noteTool],
    workspace,
    ops: nodeOperations,
    maxTurns: turns + 1,
  };
  const before = process.cpuUsage();
  const outcome = await runAgentLoop(config, session, () => {});
  const used = process.cpuUsage(before);
  if (outcome.status !== "completed" || outcome.turns !== turns)
    throw new Error(
      `overhead: expected ${turns} completed turns, got ${outcome.status} after ${outcome.turns}`,
    );
  return (used.user + used.system) / 1000 / turns;
}

await benchMain(import.meta, measureOverhead);
