import { builtinAgents } from "../src/agents/builtin-agents.ts";
import type { Model } from "../src/model/model.ts";
import { a2aPlacement } from "../src/remote/client/a2a-placement.ts";
import { serveA2a } from "../src/remote/serve/a2a-http-server.ts";
import type { ServedAgents } from "../src/remote/serve/served-agents.ts";
import type { ChildExecutor } from "../src/subagents/run/executor.ts";
import { inProcessExecutor } from "../src/subagents/run/in-process-executor.ts";
import { remoteSpec } from "../test/support/a2a-client.ts";
import { testLocalChild } from "../test/support/local-child.ts";
import { type BenchArgs, benchMain } from "./support/bench-main.ts";
import { instantModel } from "./support/instant-model.ts";
import { type Row, row } from "./support/row.ts";
import { summarize } from "./support/stats.ts";
import { tempDir } from "./support/temp-dir.ts";

export interface RemoteOptions extends BenchArgs {
  /** Untimed delegations of each kind first (default 5). */
  warmup?: number;
}

const FIGURE = "remote delegation";
const TOKEN = "bench-token-0123456789abcdef";
const definition = builtinAgents().find((agent) => agent.name === "explore")!;

export async function measureRemote(options: RemoteOptions = {}): Promise<Row[]> {
  const runs = options.runs ?? 30;
  const warmup = options.warmup ?? 5;
  const { dir, remove } = await tempDir("remote");
  const model = instantModel(() => ({ text: "done" }));
  const agents: ServedAgents = {
    agents: [{ name: "explore", description: definition.description }],
    open: async (_, { contextId }) => ({ ...(await localChild(dir, model, contextId)), model: model.id }),
  };
  const server = await serveA2a({
    agents,
    host: "127.0.0.1",
    port: 0,
    token: TOKEN,
    version: "bench",
    log: () => {},
  });
  try {
    const client = a2aPlacement({ env: {} });
    let n = 0;
    const remote = async () =>
      client.executor(
        remoteSpec(server.agentUrl("explore"), {
          headers: { Authorization: `Bearer ${TOKEN}` },
          taskId: `sub-${++n}`,
          agentPath: ["main", `far-${n}`],
          stallMs: 30_000,
        }),
      );
    const local = async () => (await localChild(dir, model, `local-${++n}`)).executor;
    const timeLocal: number[] = [];
    const timeRemote: number[] = [];
    for (let i = 0; i < warmup; i++) {
      await delegate(await local());
      await delegate(await remote());
    }
    for (let i = 0; i < runs; i++) {
      timeLocal.push(await delegate(await local()));
      timeRemote.push(await delegate(await remote()));
    }
    // Paired by run; noise can make one pair negative (a slow local run): counted as no overhead.
    const extra = timeRemote.map((value, i) => Math.max(0, value - timeLocal[i]!));
    return [
      row(FIGURE, "local child, one delegation", "ms", timeLocal, {
        note: "Wall time from start() to the outcome of a new child (new session) whose model answers at once; in this process.",
      }),
      row(FIGURE, "remote child over A2A, one delegation", "ms", timeRemote, {
        note: "The same child behind agentry's A2A server on 127.0.0.1 (same process), reached by the A2A client: card cached per run, SendStreamingMessage with SSE, bearer token checked.",
      }),
      row(FIGURE, "A2A overhead per delegation", "ms", extra, {
        goal: { max: 30 },
        note: `Remote minus local, paired by run, at least 0 (median ${summarize(extra).median.toFixed(1)} ms); ${warmup} warm-up delegations of each kind first.`,
      }),
    ];
  } finally {
    await server.close();
    await remove();
  }
}

async function localChild(workspace: string, model: Model, id: string) {
  const agentPath = ["main", `explore-${id}`];
  const child = await testLocalChild(model, workspace, { agentPath });
  return { executor: inProcessExecutor(child, () => {}), agentPath, sessionId: child.session.id };
}

async function delegate(executor: ChildExecutor): Promise<number> {
  const started = performance.now();
  const { outcome } = await executor.start({
    prompt: "Look around.",
    messages: [],
    signal: new AbortController().signal,
    emit: () => {},
  }).done;
  const took = performance.now() - started;
  if (outcome.status !== "completed") throw new Error(`remote bench: the child ended ${outcome.status}`);
  executor.close?.();
  return took;
}

await benchMain(import.meta, measureRemote);
