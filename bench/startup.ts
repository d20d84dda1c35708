// Start-up: `agentry --version`, and `agentry run` from spawn to its first model request arriving
// at the test model server (started in this process). Measured as a checkout runs it (bin/agentry.js
// → the TypeScript sources, types stripped by Node at load), and, to show what would meet the goals,
// with Node's compile cache (NODE_COMPILE_CACHE, what `module.enableCompileCache()` turns on), from a
// tsc build and from a rolldown bundle. An import probe shows where the time goes.
//   node bench/startup.ts [--runs 10]
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { startModelServer } from "../test/support/model-server.ts";
import { type BenchArgs, benchMain } from "./support/bench-main.ts";
import { type Built, buildBundle, buildDist } from "./support/dist-build.ts";
import { type Row, row } from "./support/row.ts";
import { expectSuccess, runNode } from "./support/spawn-timed.ts";
import { tempDir } from "./support/temp-dir.ts";

export interface StartupOptions extends BenchArgs {
  /** Also measure the compile cache, a tsc build and a rolldown bundle (default true). */
  variants?: boolean;
  /** Runs of the import probe per build (default 5). */
  probeRuns?: number;
}

const FIGURE = "start-up";
const REPO = fileURLToPath(new URL("../", import.meta.url));
const PROBE = fileURLToPath(new URL("./support/startup-probe.ts", import.meta.url));

interface Variant {
  label: string;
  bin: string;
  env: Record<string, string>;
  note?: string;
  /** For the import probe: the cli folder and its modules' extension (a bundle has no such layout). */
  probe?: { cliDir: string; ext: "ts" | "js" };
}

export async function measureStartup(options: StartupOptions = {}): Promise<Row[]> {
  const runs = options.runs ?? 10;
  const probeRuns = options.probeRuns ?? 5;
  const withVariants = options.variants ?? true;
  const { dir, remove } = await tempDir("startup");
  const builds: Built[] = [];
  try {
    const home = join(dir, "home");
    const workspace = join(dir, "project");
    await mkdir(home);
    await mkdir(workspace);
    const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home, NO_COLOR: "1" };
    const cache = (name: string) => ({ ...env, NODE_COMPILE_CACHE: join(dir, `compile-cache-${name}`) });
    const source = join(REPO, "bin/agentry.js");
    const variants: Variant[] = [
      { label: "", bin: source, env, probe: { cliDir: join(REPO, "src/cli/"), ext: "ts" } },
    ];
    if (withVariants) {
      variants.push({
        label: " (+ compile cache)",
        bin: source,
        env: cache("source"),
        note: "informative: the sources with NODE_COMPILE_CACHE set (a warm cache holds V8 code and the stripped TypeScript); bin/agentry.js could turn it on with module.enableCompileCache().",
      });
      const dist = await buildDist();
      builds.push(dist);
      variants.push(
        {
          label: " (tsc dist/)",
          bin: dist.bin,
          env,
          note: "informative: src/ compiled file by file with bench/tsconfig.build.json into a temp folder laid out as a package (dist/, bin/, prompts).",
          probe: { cliDir: join(dist.root, "dist/cli/"), ext: "js" },
        },
        { label: " (tsc dist/ + compile cache)", bin: dist.bin, env: cache("dist") },
      );
      const bundle = await buildBundle();
      if (bundle) {
        builds.push(bundle);
        variants.push(
          {
            label: " (rolldown bundle)",
            bin: bundle.bin,
            env,
            note: "informative: src/cli/main.ts and the packages it imports bundled by rolldown (installed with vitest) into a few ESM chunks, prompts beside them.",
          },
          { label: " (rolldown bundle + compile cache)", bin: bundle.bin, env: cache("bundle") },
        );
      }
    }

    const node: number[] = [];
    for (let i = 0; i < runs; i++)
      node.push(expectSuccess(await runNode(["-e", "0"], { env }), "node -e 0").ms);
    const rows: Row[] = [
      row(FIGURE, "node -e 0 (Node alone)", "ms", node, {
        note: "spawn → exit: the floor under every figure below.",
      }),
    ];
    for (const variant of variants) {
      // One untimed round fills the compile cache (and the OS's file cache, for every variant alike).
      await runNode([variant.bin, "--version"], { env: variant.env });
      await timeToFirstRequest(variant, workspace);
      const version: number[] = [];
      const firstRequest: number[] = [];
      for (let i = 0; i < runs; i++) {
        version.push(
          expectSuccess(await runNode([variant.bin, "--version"], { env: variant.env }), "--version").ms,
        );
        firstRequest.push(await timeToFirstRequest(variant, workspace));
      }
      const main = variant.label === "";
      rows.push(
        row(FIGURE, `agentry --version${variant.label}`, "ms", version, {
          ...(main
            ? { goal: { max: 150 }, note: "spawn → exit, as a checkout runs it (bin/agentry.js → src/*.ts)." }
            : {}),
        }),
        row(FIGURE, `agentry run → first model request${variant.label}`, "ms", firstRequest, {
          ...(main
            ? {
                goal: { max: 300 },
                note: "spawn → the request arriving at the test model server (in the bench process); empty project and HOME. One untimed round first, for every variant.",
              }
            : variant.note
              ? { note: variant.note }
              : {}),
        }),
      );
      if (variant.probe) rows.push(...(await probe(variant.label, variant.probe, env, probeRuns)));
    }
    return rows;
  } finally {
    for (const build of builds) await build.remove();
    await remove();
  }
}

/** Spawns `agentry run` against a fresh test model server; ms from spawn to its first request. */
async function timeToFirstRequest(variant: Variant, workspace: string): Promise<number> {
  const server = await startModelServer({ text: "ok" });
  try {
    const started = performance.now();
    const result = await runNode([variant.bin, "run", "--permission-mode", "bypass", "Say ok."], {
      cwd: workspace,
      env: { ...variant.env, ANTHROPIC_BASE_URL: server.anthropicBaseUrl, ANTHROPIC_API_KEY: "bench-key" },
    });
    expectSuccess(result, "agentry run");
    const first = server.requests[0];
    if (!first) throw new Error("agentry run made no model request");
    return first.startedAt - started;
  } finally {
    await server.close();
  }
}

interface ProbeResult {
  bootMs: number;
  steps: Array<{ step: string; ms: number; ownModules: number; packageModules: number }>;
}

/** The import probe `runs` times: Node's boot, then each group of modules `run` loads. */
async function probe(
  label: string,
  target: NonNullable<Variant["probe"]>,
  env: Record<string, string>,
  runs: number,
): Promise<Row[]> {
  const results: ProbeResult[] = [];
  for (let i = 0; i < runs; i++) {
    const result = expectSuccess(
      await runNode([PROBE, pathToFileURL(target.cliDir).href, target.ext], { env, cwd: REPO }),
      "startup probe",
    );
    results.push(JSON.parse(result.stdout) as ProbeResult);
  }
  const first = results[0]!;
  const name = `start-up breakdown${label}`;
  return [
    row(
      name,
      "process start → first line of the probe (.ts)",
      "ms",
      results.map((r) => r.bootMs),
    ),
    ...first.steps.map((step, index) =>
      row(
        name,
        `import ${step.step} (${step.ownModules} own + ${step.packageModules} package modules)`,
        "ms",
        results.map((r) => r.steps[index]!.ms),
      ),
    ),
  ];
}

await benchMain(import.meta, measureStartup);
