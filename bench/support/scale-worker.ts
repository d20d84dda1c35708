// One scale run in a fresh process (peak RSS is per process):
//   node bench/support/scale-worker.ts <children> <holdMs>
// The root starts <children> background children in one message; every child's model call waits on
// one shared gate, opened <holdMs> after the last child made its call, so all are alive together.
// Prints one JSON line: peak RSS, event-loop delay percentiles, and how long things took.
import { monitorEventLoopDelay } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";
import { runAgentLoop } from "../../src/agent/loop.ts";
import { Session } from "../../src/agent/session/session.ts";
import { userText } from "../../src/model/messages.ts";
import { isChildSystem } from "./child-mark.ts";
import { instantModel } from "./instant-model.ts";
import { subagentTree } from "./subagent-tree.ts";
import { tempDir } from "./temp-dir.ts";

export interface ScaleResult {
  children: number;
  peakRssMb: number;
  /** Sampled while all children were alive. */
  aliveRssMb: number;
  aliveHeapMb: number;
  aliveExternalMb: number;
  delayP50Ms: number;
  delayP99Ms: number;
  delayMaxMs: number;
  /** p99 of the event-loop delay while children start, while all wait, and while they finish. */
  phaseP99Ms: { starting: number; alive: number; finishing: number };
  /** From the root's run start until every child had made its model call. */
  allAliveMs: number;
  wallMs: number;
  outcome: string;
}

const children = Number(process.argv[2] ?? 1000);
const holdMs = Number(process.argv[3] ?? 3000);

let open!: () => void;
const gate = new Promise<void>((resolve) => {
  open = resolve;
});
let waiting = 0;
let allAlive!: () => void;
const everyoneWaiting = new Promise<void>((resolve) => {
  allAlive = resolve;
});

const model = instantModel((request) => {
  if (isChildSystem(request.system)) {
    if (++waiting === children) allAlive();
    return gate.then(() => ({ text: "Done: nothing to report." }));
  }
  const results = request.messages.filter((message) => message.role === "tool_result").length;
  if (results > 0) return { text: "Waiting for my children." };
  return {
    toolCalls: Array.from({ length: children }, (_, i) => ({
      name: "task",
      args: {
        description: `Background job ${i}`,
        prompt: `Job ${i}.`,
        subagent_type: "explore",
        run_in_background: true,
      },
    })),
  };
});

const { dir, remove } = await tempDir("scale");
try {
  const { config, runtime } = subagentTree({
    workspace: dir,
    model,
    limits: { maxConcurrent: children, maxDescendants: children },
  });
  const session = await Session.create({ workspace: dir, agentName: "main", model: model.id });
  await session.append(userText(`Start ${children} background jobs.`));
  const delay = monitorEventLoopDelay({ resolution: 10 });
  const phase = monitorEventLoopDelay({ resolution: 10 });
  const phaseP99: number[] = [];
  const nextPhase = () => {
    phaseP99.push(phase.percentile(99) / 1e6);
    phase.reset();
  };
  delay.enable();
  phase.enable();
  const started = performance.now();
  const run = runAgentLoop({ ...config, maxTurns: 10_000 }, session, () => {});
  await Promise.race([everyoneWaiting, run]);
  const allAliveMs = performance.now() - started;
  nextPhase();
  await sleep(holdMs);
  nextPhase();
  const memory = process.memoryUsage();
  open();
  const outcome = await run;
  const wallMs = performance.now() - started;
  delay.disable();
  nextPhase();
  phase.disable();
  await runtime.shutdown();
  const result: ScaleResult = {
    children: waiting,
    peakRssMb: process.resourceUsage().maxRSS / 1024,
    aliveRssMb: memory.rss / 2 ** 20,
    aliveHeapMb: memory.heapUsed / 2 ** 20,
    aliveExternalMb: memory.external / 2 ** 20,
    delayP50Ms: delay.percentile(50) / 1e6,
    delayP99Ms: delay.percentile(99) / 1e6,
    delayMaxMs: delay.max / 1e6,
    phaseP99Ms: { starting: phaseP99[0]!, alive: phaseP99[1]!, finishing: phaseP99[2]! },
    allAliveMs,
    wallMs,
    outcome: outcome.status,
  };
  process.stdout.write(`${JSON.stringify(result)}\n`);
} finally {
  await remove();
}
process.exit(0);
