// StrykerJS's settings for `npm run mutate` (scripts/mutate.ts gives each target its files, test files,
// incremental file and report). docs/mutation.md says how to run it and what the scores are.
/** @type {import("@stryker-mutator/api/core").PartialStrykerOptions} */
export default {
  testRunner: "vitest",
  // The project's vitest.config.ts as it is, in the pool it uses (forks: some tests change the working
  // folder or the environment, which worker threads do not allow); Stryker runs one worker per runner.
  vitest: { configFile: "vitest.stryker.config.ts", pool: "forks", related: true },
  // No type checker: TypeScript 7 has no JS API for @stryker-mutator/typescript-checker (only an
  // experimental one-mutant-at-a-time mode), and a mutant that breaks a type still runs the tests.
  checkers: [],
  // Stryker rewrites the `extends`/`references` of tsconfig.json through TypeScript's JS API, which
  // TypeScript 7 no longer has; ours has neither, so it is pointed at a file that does not exist.
  tsconfigFile: "tsconfig.stryker-none.json",
  coverageAnalysis: "perTest",
  // The machine's 2 cores are shared: at most 2 test runners (npm run mutate -- --concurrency 1).
  concurrency: 2,
  incremental: true,
  // Timing tests slow down under instrumentation and a loaded machine: a generous margin before a
  // mutant counts as a timeout (which Stryker counts as detected).
  timeoutMS: 10_000,
  timeoutFactor: 2,
  // The first run of a target's tests (with coverage per test) took over Stryker's default 5 minutes
  // on this 2-core machine while other work ran: it would fail the whole target.
  dryRunTimeoutMinutes: 30,
  reporters: ["clear-text", "progress-append-only", "json"],
  tempDirName: ".stryker-tmp",
  cleanTempDir: "always",
  ignorePatterns: ["dist", "coverage", ".agentry", "reports"],
};
