import { defineConfig } from "vitest/config";
import base from "./vitest.config.ts";

/**
 * The test settings of `npm run mutate` (stryker.config.mjs): the project's, with two changes.
 * - The test files are those of the target being mutated (`AGENTRY_MUTATE_TESTS`, comma-separated
 *   globs, set by scripts/mutate.ts), not Stryker's `testFiles`: with `testFiles`, Stryker 10.1 switches
 *   a mutant in a module-level constant on only after its module has loaded, so it can never be killed.
 * - Each test file gets its own module graph again: such a mutant is switched on when its module
 *   loads, and a worker that kept the modules of an earlier run would never load the mutated ones.
 * - The files being mutated are loaded before each test file's tests (`AGENTRY_MUTATE_FILES`,
 *   test/support/mutate-preload.ts): a module src/ loads lazily would otherwise be first evaluated
 *   inside one test, which Stryker then takes for the only test covering the module's top level.
 * - No bundled CLI (the suite's global setup): a mutant is switched on in the test runner only, so the
 *   CLI a test starts runs the sandbox's sources as they are, and building it for every runner is waste.
 */
const tests = process.env.AGENTRY_MUTATE_TESTS?.split(",").filter((glob) => glob !== "");
const preload = process.env.AGENTRY_MUTATE_FILES === undefined ? [] : ["test/support/mutate-preload.ts"];

// One project of the target's files: the suite's projects (unit and heavy) each name their own files,
// which would run every test of the suite against every mutant.
const { projects: _suiteProjects, ...suite } = base.test ?? {};

export default defineConfig({
  ...base,
  test: {
    ...suite,
    isolate: true,
    globalSetup: [],
    setupFiles: [...(suite.setupFiles ?? []), ...preload],
    ...(tests === undefined ? {} : { include: tests }),
  },
});
