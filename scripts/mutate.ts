// npm run mutate: mutation testing (StrykerJS) of the folders where a bug the tests miss is a security
// or data-loss bug. Not part of `npm test` or CI: it is slow (times in docs/mutation.md).
//   npm run mutate [-- <target>…] [--concurrency <n>] [--force] [--ignore-static]
// - targets (default all, one after the other): sandbox, permissions, agents-loaders, tasks, child-state;
// - each target is its own Stryker run on stryker.config.mjs, mutating its files and running only its
//   test files (vitest's related mode narrows them further to those that import the mutated code);
// - incremental: each target keeps its results in reports/mutation/<target>.incremental.json, and a
//   later run retests only the mutants whose code or tests changed (`--force` retests all); static
//   mutants are always retested, as no test is known to cover them;
// - `--ignore-static` leaves out the mutants in code that runs as a module loads (tables, lists,
//   schemas): each costs a whole run of the target's tests, so a quick run skips them (Stryker reports
//   them as ignored, outside the score);
// - prints each target's mutation score (detected / valid mutants, as Stryker counts it) and how long
//   it took, and writes them to reports/mutation/summary.json. Stryker's own report lists survivors.
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { join, matchesGlob, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import type { MutantResult } from "@stryker-mutator/api/core";
import { Stryker } from "@stryker-mutator/core";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const REPORTS = join(ROOT, "reports", "mutation");

interface Target {
  mutate: string[];
  tests: string[];
}

/** What each target mutates, and the test files that may kill its mutants. */
const TARGETS: Readonly<Record<string, Target>> = {
  sandbox: {
    // Not mutated: the Seatbelt profile runs only on macOS, and the network bridge's script only as its
    // own process inside the sandbox, where Stryker cannot switch a mutant on (docs/mutation.md).
    mutate: ["src/sandbox/**/*.ts", "!src/sandbox/seatbelt-profile.ts"],
    tests: ["test/sandbox/**/*.test.ts"],
  },
  permissions: {
    // The rules and the reading of shell commands they stand on (src/shell/).
    mutate: ["src/permissions/**/*.ts", "src/shell/**/*.ts"],
    // The bash tool's tests run commands through that analysis too.
    tests: ["test/permissions/**/*.test.ts", "test/shell/**/*.test.ts", "test/tools/bash/**/*.test.ts"],
  },
  "agents-loaders": {
    mutate: ["src/agents/loaders/**/*.ts"],
    tests: ["test/agents/**/*.test.ts"],
  },
  tasks: {
    mutate: ["src/tasks/**/*.ts"],
    tests: ["test/tasks/**/*.test.ts"],
  },
  "child-state": {
    mutate: ["src/subagents/child/child-state.ts"],
    tests: ["test/subagents/child-state.test.ts", "test/subagents/child.test.ts"],
  },
};

interface Score {
  target: string;
  /** Detected (killed or timed out) per valid mutant, in percent: Stryker's mutation score. */
  score: number;
  killed: number;
  timeout: number;
  survived: number;
  noCoverage: number;
  /** Mutants that did not compile or crashed the runner: not valid, so not in the score. */
  errors: number;
  /**
   * "Survivors" for which not one test ran (a runner that broke, or such a result reused by an
   * incremental run): counted as survived by Stryker, but nothing was measured. Rerun with --force.
   */
  ranNoTest: number;
  seconds: number;
}

function scoreOf(target: string, results: readonly MutantResult[], seconds: number): Score {
  const count = (...statuses: string[]) =>
    results.filter((result) => statuses.includes(result.status)).length;
  const killed = count("Killed");
  const timeout = count("Timeout");
  const survived = count("Survived");
  const noCoverage = count("NoCoverage");
  const valid = killed + timeout + survived + noCoverage;
  return {
    target,
    score: valid === 0 ? 100 : Math.round(((killed + timeout) / valid) * 10_000) / 100,
    killed,
    timeout,
    survived,
    noCoverage,
    errors: count("CompileError", "RuntimeError"),
    ranNoTest: ranNoTest(results).length,
    seconds,
  };
}

/**
 * Whether a result is of a file the target mutates. An incremental file keeps the results of files a
 * target no longer mutates (or never should have), and Stryker reports them again with the new ones.
 */
function inTarget(target: Target, result: MutantResult): boolean {
  const file = relative(ROOT, resolve(ROOT, result.fileName));
  const excluded = target.mutate.filter((glob) => glob.startsWith("!")).map((glob) => glob.slice(1));
  const included = target.mutate.filter((glob) => !glob.startsWith("!"));
  return (
    included.some((glob) => matchesGlob(file, glob)) && !excluded.some((glob) => matchesGlob(file, glob))
  );
}

/**
 * Removes the results of static mutants from an incremental file, so that they are run again (or, with
 * `--ignore-static`, left out). Stryker reuses a result while the mutant's own code is unchanged and no
 * test covering it changed, but a static mutant has no covering tests of its own: its result was
 * reused forever, however many tests were written since (146 stale "survivors" in `permissions`).
 */
async function dropStaticResults(file: string): Promise<number> {
  const text = await readFile(file, "utf8").catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return undefined;
    throw error;
  });
  if (text === undefined) return 0;
  const report = JSON.parse(text) as { files: Record<string, { mutants: Array<{ static?: boolean }> }> };
  let dropped = 0;
  for (const entry of Object.values(report.files)) {
    const kept = entry.mutants.filter((mutant) => mutant.static !== true);
    dropped += entry.mutants.length - kept.length;
    entry.mutants = kept;
  }
  if (dropped > 0) await writeFile(file, JSON.stringify(report));
  return dropped;
}

function ranNoTest(results: readonly MutantResult[]): MutantResult[] {
  return results.filter((result) => result.status === "Survived" && result.testsCompleted === 0);
}

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      concurrency: { type: "string" },
      force: { type: "boolean", default: false },
      "ignore-static": { type: "boolean", default: false },
    },
  });
  const names = positionals.length > 0 ? positionals : Object.keys(TARGETS);
  const unknown = names.filter((name) => !(name in TARGETS));
  if (unknown.length > 0) {
    console.error(`unknown target ${unknown.join(", ")}: the targets are ${Object.keys(TARGETS).join(", ")}`);
    process.exit(2);
  }
  await mkdir(REPORTS, { recursive: true });
  const scores: Score[] = [];
  for (const name of names) {
    const target = TARGETS[name] as Target;
    const started = performance.now();
    // vitest.stryker.config.ts reads it, in Stryker's test runner processes (see why there).
    process.env.AGENTRY_MUTATE_TESTS = target.tests.join(",");
    // test/support/mutate-preload.ts loads them before each test file's tests (see why there).
    process.env.AGENTRY_MUTATE_FILES = target.mutate.join(",");
    // As in CI, a test whose program (bwrap, redis-server…) is missing fails instead of skipping: a
    // mutant that breaks finding bwrap must fail the sandbox's tests, not skip them.
    process.env.CI = "true";
    // A run stopped part-way leaves its sandbox behind, and the next run's test runners crash on it.
    await rm(join(ROOT, ".stryker-tmp"), { recursive: true, force: true });
    const incrementalFile = join(REPORTS, `${name}.incremental.json`);
    await dropStaticResults(incrementalFile);
    const reported = await new Stryker({
      configFile: join(ROOT, "stryker.config.mjs"),
      mutate: target.mutate,
      incrementalFile,
      jsonReporter: { fileName: join(REPORTS, `${name}.json`) },
      force: values.force,
      ignoreStatic: values["ignore-static"],
      ...(values.concurrency === undefined ? {} : { concurrency: Number(values.concurrency) }),
    }).runMutationTest();
    const results = reported.filter((result) => inTarget(target, result));
    if (results.length < reported.length) {
      console.warn(
        `\n${name}: ${reported.length - results.length} results of files the target does not mutate ` +
          "(kept by its incremental file from an earlier run) are left out of its score.",
      );
    }
    scores.push(scoreOf(name, results, Math.round((performance.now() - started) / 1000)));
    const unmeasured = ranNoTest(results);
    if (unmeasured.length > 0) {
      console.warn(
        `\n${name}: ${unmeasured.length} mutants "survived" without one test running, so nothing was measured ` +
          `(first: ${unmeasured[0]?.fileName}:${unmeasured[0]?.location.start.line}). ` +
          `Rerun with: npm run mutate -- ${name} --force`,
      );
    }
  }
  await writeFile(join(REPORTS, "summary.json"), `${JSON.stringify(scores, null, 2)}\n`);
  console.log("\ntarget          score   killed  timeout  survived  no cov  errors  time");
  for (const s of scores)
    console.log(
      `${s.target.padEnd(15)} ${`${s.score.toFixed(2)}%`.padStart(7)} ${String(s.killed).padStart(8)} ${String(s.timeout).padStart(8)} ${String(s.survived).padStart(9)} ${String(s.noCoverage).padStart(7)} ${String(s.errors).padStart(7)}  ${s.seconds} s`,
    );
}

await main();
