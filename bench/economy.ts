// Context economy (issue 13): a parent delegates to 3 general-purpose children that each read 5 files
// of ~18 KB in all and report (support/economy-workload.ts), run by the installed package's
// `agentry run` against the test model server on the Anthropic wire, with its prompt cache
// (test/support/anthropic-prompt-cache.ts). Tokens are the server's estimate: characters of each
// block's JSON ÷ 4. Per call: the fixed part (system prompt + tool definitions) of the parent's and a
// child's first request; per run: the input tokens of all calls as agentry's --output-format json
// reports them for the tree (uncached + cache read + cache write), the share read from the cache, the
// process's peak RSS and its wall time with a model that answers at once (the harness's own time).
//   node bench/economy.ts [--runs 5]
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Usage } from "../src/model/messages.ts";
import { fixedTokens } from "../test/support/anthropic-prompt-cache.ts";
import { type RecordedRequest, startModelServer } from "../test/support/model-server.ts";
import { toolResultCount } from "./support/anthropic-wire.ts";
import { type BenchArgs, benchMain } from "./support/bench-main.ts";
import { type Installed, installPacked } from "./support/dist-build.ts";
import { ROOT_PROMPT, WORKLOAD, workloadScript, writeWorkloadFiles } from "./support/economy-workload.ts";
import { type Row, row } from "./support/row.ts";
import { expectSuccess, runNode } from "./support/spawn-timed.ts";
import { tempDir } from "./support/temp-dir.ts";

export interface EconomyOptions extends BenchArgs {
  /** The `agentry` bin to run (default: the installed package, packed from this checkout). */
  bin?: string;
  /** An `AGENTS.md` for the workspace (default: none), to measure what instruction files cost. */
  agentsMd?: string;
}

const FIGURE = "economy";
const MAX_RSS = new URL("./support/max-rss.mjs", import.meta.url).href;
const GOALS = { parent: 2_500, child: 1_200, total: 25_000, rssMb: 100 };

interface EconomyRun {
  parent: { tools: number; system: number; toolCount: number };
  child: { tools: number; system: number; toolCount: number };
  tree: Usage;
  calls: number;
  wallMs: number;
  firstRequestMs: number;
  rssMb: number;
}

export async function measureEconomy(options: EconomyOptions = {}): Promise<Row[]> {
  const runs = options.runs ?? 5;
  let installed: Installed | undefined;
  const { dir, remove } = await tempDir("economy");
  try {
    let bin = options.bin;
    if (bin === undefined) {
      installed = await installPacked();
      bin = installed.bin;
    }
    const home = join(dir, "home");
    const env = {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      HOME: home,
      NO_COLOR: "1",
      NODE_COMPILE_CACHE: join(dir, "compile-cache"),
    };
    const agentsMd = options.agentsMd;
    // Fills the compile cache, as a user's second run finds it.
    await runOnce(bin, dir, env, "warm-up", agentsMd);
    const results: EconomyRun[] = [];
    for (let i = 0; i < runs; i++) results.push(await runOnce(bin, dir, env, `run-${i}`, agentsMd));
    const first = results[0]!;
    const total = (usage: Usage) => usage.input + usage.cacheRead + usage.cacheWrite;
    const all = (pick: (run: EconomyRun) => number) => results.map(pick);
    const workload = `${WORKLOAD.children} general-purpose children × ${WORKLOAD.filesPerChild} files of ${WORKLOAD.fileChars.toLocaleString("en")} characters, read in one message`;
    return [
      row(
        FIGURE,
        "fixed tokens per call, parent (system + tools)",
        "tok",
        [first.parent.tools + first.parent.system],
        {
          goal: { max: GOALS.parent },
          note: `${workload}; scripted at the test model server (Anthropic wire, prompt cache on), run by agentry run. Tokens ≈ characters of each block's JSON ÷ 4 (test/support/anthropic-prompt-cache.ts). Parent: ${first.parent.toolCount} tools, ${first.parent.tools} tok; system prompt ${first.parent.system} tok.`,
        },
      ),
      row(
        FIGURE,
        "fixed tokens per call, child (system + tools)",
        "tok",
        [first.child.tools + first.child.system],
        {
          goal: { max: GOALS.child },
          note: `Child: ${first.child.toolCount} tools, ${first.child.tools} tok; system prompt ${first.child.system} tok.`,
        },
      ),
      row(
        FIGURE,
        "total input tokens, all calls",
        "tok",
        all((run) => total(run.tree)),
        {
          goal: { max: GOALS.total },
          note: `uncached + cache read + cache write over the ${first.calls} model calls of the tree, as agentry reports them (--output-format json, treeUsage).`,
        },
      ),
      row(
        FIGURE,
        "prompt-cache hit rate (cache read ÷ input)",
        "%",
        all((run) => (100 * run.tree.cacheRead) / total(run.tree)),
        {
          note: "Anthropic's cache as the test server models it: a breakpoint's prefix of ≥ 1,024 tokens is written once answered; the children's first calls are in flight together.",
        },
      ),
      row(
        FIGURE,
        "peak RSS of agentry run",
        "MB",
        all((run) => run.rssMb),
        { goal: { max: GOALS.rssMb } },
      ),
      row(
        FIGURE,
        "harness time: agentry run, spawn → exit (model answers at once)",
        "ms",
        all((run) => run.wallMs),
        {
          note: "the whole run with replies sent at once: start-up, 8 model calls over HTTP, 15 reads, transcripts and task records, exit.",
        },
      ),
      row(
        FIGURE,
        "spawn → first model request",
        "ms",
        all((run) => run.firstRequestMs),
      ),
    ];
  } finally {
    await installed?.remove();
    await remove();
  }
}

async function runOnce(
  bin: string,
  root: string,
  env: Record<string, string>,
  name: string,
  agentsMd: string | undefined,
): Promise<EconomyRun> {
  const workspace = join(root, name);
  const parts = await writeWorkloadFiles(workspace);
  if (agentsMd !== undefined) await writeFile(join(workspace, "AGENTS.md"), agentsMd);
  const rssFile = join(root, `${name}.rss`);
  const server = await startModelServer(workloadScript(parts), { promptCache: {} });
  try {
    const started = performance.now();
    const result = expectSuccess(
      await runNode(
        [
          "--import",
          MAX_RSS,
          bin,
          "run",
          "--output-format",
          "json",
          "--permission-mode",
          "bypass",
          ROOT_PROMPT,
        ],
        {
          cwd: workspace,
          env: {
            ...env,
            ANTHROPIC_BASE_URL: server.anthropicBaseUrl,
            ANTHROPIC_API_KEY: "bench-key",
            AGENTRY_BENCH_RSS_FILE: rssFile,
          },
        },
      ),
      "agentry run",
    );
    const output = JSON.parse(result.stdout) as { outcome: string; treeUsage: Usage; agentRuns: number };
    const expectedRuns = WORKLOAD.children + 1;
    if (output.outcome !== "completed" || output.agentRuns !== expectedRuns)
      throw new Error(
        `economy: the run ended ${output.outcome} with ${output.agentRuns} agent runs (expected ${expectedRuns})`,
      );
    const parent = server.requests.find((request) => isFirstCall(request, ROOT_PROMPT));
    const child = server.requests.find(
      (request) => !isFirstCall(request, ROOT_PROMPT) && toolResultCount(request.body) === 0,
    );
    if (!parent || !child) throw new Error("economy: the parent's or a child's first request is missing");
    const firstRequest = server.requests[0]!;
    return {
      parent: fixedOf(parent),
      child: fixedOf(child),
      tree: output.treeUsage,
      calls: server.requests.length,
      wallMs: result.ms,
      firstRequestMs: firstRequest.startedAt - started,
      rssMb: Number(await readFile(rssFile, "utf8")) / 1024,
    };
  } finally {
    await server.close();
  }
}

function isFirstCall(request: RecordedRequest, prompt: string): boolean {
  return toolResultCount(request.body) === 0 && request.rawBody.includes(JSON.stringify(prompt).slice(1, -1));
}

function fixedOf(request: RecordedRequest): EconomyRun["parent"] {
  const tools = Array.isArray(request.body.tools) ? request.body.tools.length : 0;
  return { ...fixedTokens(request.body), toolCount: tools };
}

await benchMain(import.meta, measureEconomy);
