// Start-up: `agentry --version`, and `agentry run` from spawn to its first model request arriving
// at the test model server (started in this process). The goals are measured on what a user installs:
// this checkout packed with `npm pack` (its prepack builds the rolldown bundle) and extracted into a
// project's node_modules/ (support/dist-build.ts), run through the package's bin/agentry.js with the
// compile cache on, as bin turns it on. Informative rows: the package with the cache off, and this
// checkout running its TypeScript sources, with an import probe showing where their time goes.
//   node bench/startup.ts [--runs 10]
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { startModelServer } from "../test/support/model-server.ts";
import { type BenchArgs, benchMain } from "./support/bench-main.ts";
import { type Installed, installPacked } from "./support/dist-build.ts";
import { type Goal, type Row, row } from "./support/row.ts";
import { expectSuccess, runNode } from "./support/spawn-timed.ts";
import { tempDir } from "./support/temp-dir.ts";

export interface StartupOptions extends BenchArgs {
  /** Also measure each build with the compile cache off (default true). */
  variants?: boolean;
  /** Runs of the import probe (default 5). */
  probeRuns?: number;
  /**
   * The `bin/agentry.js` of a package already built from this checkout, laid out as installed (the
   * suite's bundle: test/support/build-cli.ts), instead of packing one: the suite's test of this
   * benchmark checks its rows, and `test/package/` tests the packing.
   */
  packageBin?: string;
}

const FIGURE = "start-up";
const REPO = fileURLToPath(new URL("../", import.meta.url));
const PROBE = fileURLToPath(new URL("./support/startup-probe.ts", import.meta.url));
const PACKAGE = "installed package";
const CHECKOUT = "checkout: src/*.ts";

interface Variant {
  /** Appended to each metric's name, in parentheses. */
  label: string;
  bin: string;
  env: Record<string, string>;
  goals?: { version: Goal; run: Goal };
  note: string;
  /** For the import probe: the cli folder and its modules' extension (a bundle has no such layout). */
  probe?: { cliDir: string; ext: "ts" | "js" };
}

export async function measureStartup(options: StartupOptions = {}): Promise<Row[]> {
  const runs = options.runs ?? 10;
  const probeRuns = options.probeRuns ?? 5;
  const withVariants = options.variants ?? true;
  const { dir, remove } = await tempDir("startup");
  let installed: Installed | undefined;
  try {
    const home = join(dir, "home");
    const workspace = join(dir, "project");
    await mkdir(home);
    await mkdir(workspace);
    const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home, NO_COLOR: "1" };
    // bin/agentry.js turns the compile cache on; the variable only gives each variant its own folder.
    const cached = (name: string) => ({ ...env, NODE_COMPILE_CACHE: join(dir, `compile-cache-${name}`) });
    const uncached = { ...env, NODE_DISABLE_COMPILE_CACHE: "1" };
    if (options.packageBin === undefined) installed = await installPacked();
    const packageBin = options.packageBin ?? installed?.bin ?? "";

    const variants: Variant[] = [
      {
        label: PACKAGE,
        bin: packageBin,
        env: cached("package"),
        goals: { version: { max: 60 }, run: { max: 120 } }, // issue 13
        note: "what users run: `npm pack` of this checkout extracted into a project's node_modules/; its bin/agentry.js imports dist/cli/main.js (rolldown bundle, dependencies included) with the compile cache on. Spawn → exit for --version; spawn → the request arriving at the test model server for run (empty project and HOME). One untimed round first.",
      },
    ];
    if (withVariants)
      variants.push({
        label: `${PACKAGE}, compile cache off`,
        bin: packageBin,
        env: uncached,
        note: "informative: the same package with NODE_DISABLE_COMPILE_CACHE=1, as on a first start.",
      });
    variants.push({
      label: CHECKOUT,
      bin: join(REPO, "bin/agentry.js"),
      env: cached("source"),
      note: "informative: this checkout's bin/agentry.js → the TypeScript sources (each module type-stripped at load), compile cache on.",
      probe: { cliDir: join(REPO, "src/cli/"), ext: "ts" },
    });
    if (withVariants)
      variants.push({
        label: `${CHECKOUT}, compile cache off`,
        bin: join(REPO, "bin/agentry.js"),
        env: uncached,
        note: "informative: the sources stripped and compiled on every start.",
      });

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
      rows.push(
        row(FIGURE, `agentry --version (${variant.label})`, "ms", version, {
          ...(variant.goals ? { goal: variant.goals.version } : {}),
        }),
        row(FIGURE, `agentry run → first model request (${variant.label})`, "ms", firstRequest, {
          ...(variant.goals ? { goal: variant.goals.run } : {}),
          note: variant.note,
        }),
      );
      if (variant.probe)
        rows.push(...(await probe(`${variant.label}, compile cache off`, variant.probe, env, probeRuns)));
    }
    return rows;
  } finally {
    await installed?.remove();
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
  const name = `start-up breakdown (${label})`;
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
