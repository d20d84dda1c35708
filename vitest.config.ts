import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    pool: "forks",
    // Test files reuse their worker instead of starting one each (~160 ms of spawn and environment per
    // file, ~50 s of a full run on 2 cores). Every test makes its own temp folders, servers and
    // processes and restores what it changes in process.env, so nothing carries over between files.
    isolate: false,
    // Vitest's default is one worker fewer than the cores: one worker on a 2-core machine, where most
    // test time is spent waiting for the processes, servers and timers a test starts. Two workers there
    // halve the run (236 s → 138 s measured) without a failure.
    maxWorkers: Math.max(2, availableParallelism() - 1),
  },
});
