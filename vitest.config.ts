import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";
import { suiteTiming } from "./test/support/suite-timing.ts";
import { chooseRunTimeScale } from "./test/support/time-scale.ts";

// Vitest's default is one worker fewer than the cores: one worker on a 2-core machine, where most
// test time is spent waiting for the processes, servers and timers a test starts. On a quiet machine
// two workers more than the cores keep them busy: on 2 cores, 3 workers took the run from 271 s to
// 199 s (2 workers: the CPUs idled 43 % of the run), and 4 workers from 180 s and 172 s to 167 s and
// 156 s (two pairs of runs, one after the other). On a machine already busy (a time scale of 2 or
// more: ready threads for half the cores or more) the extra workers only add to the load: as many
// workers as cores, and at least two.
const cores = availableParallelism();
const workers = chooseRunTimeScale().scale >= 2 ? Math.max(2, cores) : cores + 2;

// Files that start processes: the CLI, `agentry serve` and workers, Redis, MCP servers, bwrap, a
// packed package, the benchmarks. They spend most of their time waiting for those processes, yet one
// of them uses up to two cores at its peak (a CLI starting while its server answers): at most three
// quarters of the cores' worth run at once, and at least four (every worker of a 2-core machine).
// A new file that starts processes belongs here (test/support/README.md).
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
const heavyWorkers = Math.min(workers, Math.max(4, Math.ceil(cores * 0.75)));

export default defineConfig({
  test: {
    // Every bound (test and hook timeouts, expect.poll) comes from the run's time scale, which the
    // run prints; test/support/time-scale.ts.
    ...suiteTiming(),
    setupFiles: ["test/support/settle-imports.ts"],
    // The CLI the tests start, bundled once for the run (test/support/build-cli.ts).
    globalSetup: ["test/support/build-cli.ts"],
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
