import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";
import { suiteTiming } from "./test/support/suite-timing.ts";

// Vitest's default is one worker fewer than the cores: one worker on a 2-core machine, where most
// test time is spent waiting for the processes, servers and timers a test starts. Two workers there
// halve the run (236 s → 138 s measured) without a failure.
const workers = Math.max(2, availableParallelism() - 1);

// Files that start processes: the CLI, `agentry serve` and workers, Redis, MCP servers, bwrap, a
// packed package, the benchmarks. One of them uses up to two cores at its peak (a CLI starting while
// its server answers), so at most half the cores' worth run at once; two on a small machine, where
// that is every worker. A new file that starts processes belongs here (test/support/README.md).
const heavyFiles = [
  "test/cli/e2e/**/*.test.ts",
  "test/bench/**/*.test.ts",
  "test/package/**/*.test.ts",
  "test/queue/**/*.test.ts",
  "test/remote/**/*.test.ts",
  "test/mcp/**/*.test.ts",
  "test/sandbox/**/*.test.ts",
  "test/cli/agents-remote.test.ts",
  "test/cli/demo.test.ts",
  "test/cli/task-changes.test.ts",
  "test/state/process-identity.test.ts",
  "test/subagents/child-mcp.test.ts",
  "test/subagents/cross-process-cancel.test.ts",
  "test/subagents/orphan-recovery.test.ts",
  "test/subagents/task-control-watch.test.ts",
  "test/subagents/task-resume-after-kill.test.ts",
  "test/subagents/task-resume-restart.test.ts",
  "test/support/components.test.ts",
  "test/support/model-server-cli.test.ts",
  "test/support/time-scale-guard.test.ts",
  "test/tasks/cross-process-updates.test.ts",
  "test/tasks/redis-*.test.ts",
  "test/tasks/sweeper-kill.test.ts",
  "test/tools/file-race.test.ts",
  "test/agent/transcript-kill.test.ts",
  "test/ui/ui-browser.test.ts",
  "test/ui/ui-command.test.ts",
  "test/workflows/pipeline-replay.test.ts",
  "test/workflows/replay-after-kill.test.ts",
  "test/workflows/runaway-scripts.test.ts",
  "test/workflows/script-determinism.test.ts",
];
const heavyWorkers = Math.min(workers, Math.max(2, Math.floor(availableParallelism() / 2)));

export default defineConfig({
  test: {
    // Every bound (test and hook timeouts, expect.poll) comes from the run's time scale, which the
    // run prints; test/support/time-scale.ts.
    ...suiteTiming(),
    setupFiles: ["test/support/settle-imports.ts"],
    pool: "forks",
    // Test files reuse their worker instead of starting one each (~160 ms of spawn and environment per
    // file, ~50 s of a full run on 2 cores). Every test makes its own temp folders, servers and
    // processes and restores what it changes in process.env, so nothing carries over between files.
    isolate: false,
    maxWorkers: workers,
    projects: [
      {
        extends: true,
        test: { name: "unit", include: ["test/**/*.test.ts"], exclude: heavyFiles },
      },
      {
        extends: true,
        // Projects of one group share its workers; a smaller cap needs a group of its own, run after.
        test: {
          name: "heavy",
          include: heavyFiles,
          maxWorkers: heavyWorkers,
          sequence: { groupOrder: heavyWorkers === workers ? 0 : 1 },
        },
      },
    ],
  },
});
