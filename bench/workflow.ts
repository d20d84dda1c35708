// Workflow overhead: a 30-agent pipeline (10 items through 3 stages) run by runWorkflow, each agent
// a real child (task record, persisted transcript, its events) whose model answers after a fixed
// delay. The harness's share is the wall time beyond the model's along the critical path (3 replies,
// since the items run side by side), and the CPU per agent with a model that answers at once.
//   node bench/workflow.ts [--runs 5]
import { setTimeout as sleep } from "node:timers/promises";
import type { AgentConfig } from "../src/agent/config.ts";
import { AgentRegistry } from "../src/agents/agent-registry.ts";
import { builtinAgents } from "../src/agents/builtin-agents.ts";
import type { Model } from "../src/model/model.ts";
import { DEFAULT_RULES } from "../src/permissions/defaults.ts";
import type { SubagentOptions } from "../src/subagents/tree/subagent-runtime.ts";
import { attachSubagents } from "../src/subagents/tree/with-subagents.ts";
import { builtinTools } from "../src/tools/builtin.ts";
import { nodeOperations } from "../src/tools/node-operations.ts";
import { runWorkflow, workflowHost } from "../src/workflows/run-workflow.ts";
import { type BenchArgs, benchMain } from "./support/bench-main.ts";
import { instantModel } from "./support/instant-model.ts";
import { type Row, row } from "./support/row.ts";
import { tempDir } from "./support/temp-dir.ts";

export interface WorkflowBenchOptions extends BenchArgs {
  /** The model's reply time per agent (default 1,000 ms, short for a real model). */
  modelMs?: number;
  /** Items of the pipeline (default 10: 30 agents). */
  items?: number;
  /** Untimed runs first (default 1). */
  warmup?: number;
}

const FIGURE = "workflow overhead";
const STAGES = 3;

const SCRIPT = `export const meta = { name: "bench-pipeline", phases: ["Draft", "Check", "Polish"] };
return await pipeline(
  args.items,
  (item) => agent("draft " + item, { phase: "Draft" }),
  (draft) => agent("check " + draft, { phase: "Check" }),
  (checked) => agent("polish " + checked, { phase: "Polish" }),
);
`;

export async function measureWorkflow(options: WorkflowBenchOptions = {}): Promise<Row[]> {
  const modelMs = options.modelMs ?? 1_000;
  const items = options.items ?? 10;
  const runs = options.runs ?? 5;
  const warmup = options.warmup ?? 1;
  const agents = items * STAGES;
  const { dir, remove } = await tempDir("workflow");
  try {
    const delayed = instantModel(async () => {
      await sleep(modelMs);
      return { text: "ok" };
    });
    const instant = instantModel(() => ({ text: "ok" }));
    for (let i = 0; i < warmup; i++) await timedRun(dir, instant, items);
    const share: number[] = [];
    const directShare: number[] = [];
    const modelTime = STAGES * modelMs;
    const beyond = (wallMs: number) => ((wallMs - modelTime) / modelTime) * 100;
    // Side by side, so a change of the machine's load touches both alike.
    for (let i = 0; i < runs; i++) {
      share.push(beyond((await timedRun(dir, delayed, items)).wallMs));
      directShare.push(beyond((await timedRun(dir, delayed, items, { direct: true })).wallMs));
    }
    const cpu: number[] = [];
    const direct: number[] = [];
    for (let i = 0; i < runs; i++) {
      cpu.push((await timedRun(dir, instant, items)).cpuMs / agents);
      direct.push((await timedRun(dir, instant, items, { direct: true })).cpuMs / agents);
    }
    return [
      row(FIGURE, `wall time beyond the model's, ${agents}-agent pipeline`, "%", share, {
        goal: { max: 5 },
        note: `runWorkflow of a ${items}-item, ${STAGES}-stage pipeline (${agents} children with records and persisted transcripts; the built-in agents and tools); the model answers each agent after ${modelMs} ms at the Model contract, so the critical path holds ${STAGES} × ${modelMs} ms of model time. ${warmup} warm-up run(s).`,
      }),
      row(FIGURE, "wall time beyond the model's, same children without a workflow", "%", directShare, {
        note: "Informative baseline: the same 30 children, each item's stages one after another, started by plain JavaScript through the subagent runtime (no script, sandbox, journal or run record), runs alternating with the row above; the difference is the workflow layer's share of the wall time.",
      }),
      row(FIGURE, "CPU per agent call, instant model", "ms", cpu, {
        note: "process.cpuUsage() over the same pipeline with a model that answers at once, ÷ the agents: the sandbox, the child's start, records, transcript and events.",
      }),
      row(FIGURE, "CPU per agent call, same children without a workflow", "ms", direct, {
        note: "Informative baseline: the same 30 children started by plain JavaScript through the subagent runtime (no script, sandbox, journal or run record); the difference to the row above is the workflow layer's own cost.",
      }),
    ];
  } finally {
    await remove();
  }
}

async function timedRun(
  workspace: string,
  model: Model,
  items: number,
  options: { direct?: boolean } = {},
): Promise<{ wallMs: number; cpuMs: number }> {
  const config: AgentConfig = {
    name: "workflow",
    model,
    systemPrompt: "",
    tools: builtinTools(),
    workspace,
    ops: nodeOperations,
  };
  const subagents: SubagentOptions = {
    registry: new AgentRegistry({ definitions: builtinAgents() }),
    createModel: () => model,
    baseTools: () => builtinTools(),
    permission: { rules: DEFAULT_RULES, mode: "bypass" },
  };
  const names = Array.from({ length: items }, (_, i) => `item-${i}`);
  const before = process.cpuUsage();
  const started = performance.now();
  if (options.direct) {
    await directPipeline(config, subagents, names);
    const used = process.cpuUsage(before);
    return { wallMs: performance.now() - started, cpuMs: (used.user + used.system) / 1000 };
  }
  const outcome = await runWorkflow({ script: SCRIPT, args: { items: names }, config, subagents });
  const wallMs = performance.now() - started;
  const used = process.cpuUsage(before);
  if (outcome.status !== "completed" || outcome.agents.run !== items * STAGES) {
    throw new Error(
      `workflow bench: expected ${items * STAGES} agents completed, got ${JSON.stringify(outcome)}`,
    );
  }
  return { wallMs, cpuMs: (used.user + used.system) / 1000 };
}

/** The same children as the workflow's, each item's stages one after another, without a workflow. */
async function directPipeline(
  config: AgentConfig,
  subagents: SubagentOptions,
  items: string[],
): Promise<void> {
  const { runtime } = attachSubagents(config, subagents);
  const host = workflowHost(runtime, config, { emit: () => {} });
  const ctx = { ...host.context, signal: new AbortController().signal, toolCallId: "bench" };
  try {
    await Promise.all(
      items.map(async (item) => {
        let value = item;
        for (const stage of ["draft", "check", "polish"]) {
          const report = await host.children.runToEnd(
            { description: stage, prompt: `${stage} ${value}` },
            ctx,
          );
          value = report.outcome.text;
        }
      }),
    );
  } finally {
    await runtime.shutdown();
  }
}

await benchMain(import.meta, measureWorkflow);
