import type { ChildProcess } from "node:child_process";
import { setTimeout as sleep } from "node:timers/promises";
import { afterEach, describe, expect, test } from "vitest";
import { runScript, type SandboxHost } from "../../src/workflows/script-sandbox.ts";
import { WorkflowScriptError } from "../../src/workflows/workflow-errors.ts";
import { type CliResult, finished, makeWorkspace, spawnCli } from "../cli/support/cli-process.ts";
import { providerEnv } from "../cli/support/provider-env.ts";
import { type ModelServer, startModelServer } from "../support/model-server.ts";

// Scripts that never yield, in a way QuickJS's own interrupt handler does not catch in time: it runs
// only between bytecodes, and one `repeat` of 8 MiB or one `reverse` of a long array is a single one.
// The script's thread is ended from outside, so every limit holds whatever the script does.

const RUNAWAY = {
  "a loop that allocates 8 MiB strings": `let n = 0; for (;;) { const s = "x".repeat(8 << 20); n += s.length; }`,
  "a growing array": "const a = []; for (;;) { a.push(a.length); a.reverse(); }",
};
const SCRIPTS = Object.entries(RUNAWAY);

/** Generous: only catches a script that was never stopped (before the worker thread, one ran for 504 s). */
const STOPPED_WITHIN_MS = 60_000;
/** Each test's own timeout: a process start, the run and the bound above, on a loaded machine. */
const TEST_TIMEOUT = { timeout: STOPPED_WITHIN_MS + 30_000 };

function quietHost(onLog: (message: string) => void = () => {}): SandboxHost {
  return {
    args: null,
    agent: async () => JSON.stringify({ ok: false, error: "no agents here" }),
    phase: () => {},
    log: onLog,
    failure: () => {},
  };
}

describe("the compute limit", () => {
  test.each(SCRIPTS)("stops %s", TEST_TIMEOUT, async (_name, body) => {
    const error = await runScript(body, quietHost(), {
      signal: AbortSignal.timeout(STOPPED_WITHIN_MS),
      filename: "runaway.js",
      sliceMs: 300,
      memoryBytes: 256 * 1024 * 1024,
    }).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(WorkflowScriptError);
    expect((error as Error).message).toMatch(/computed too long without awaiting anything/);
  });

  test(
    "leaves the host's event loop free while a script computes, and an abort ends the script",
    TEST_TIMEOUT,
    async () => {
      let spinning!: () => void;
      const started = new Promise<void>((resolve) => {
        spinning = resolve;
      });
      const controller = new AbortController();
      let settled = false;
      const run = runScript(
        `log("spinning"); ${RUNAWAY["a loop that allocates 8 MiB strings"]}`,
        quietHost(() => spinning()),
        // Only the abort may end it here, not the compute limit.
        { signal: controller.signal, filename: "runaway.js", sliceMs: 600_000 },
      ).finally(() => {
        settled = true;
      });
      run.catch(() => {});
      await started;
      // Timers of the host fire while the script spins (before the worker thread, none did).
      for (let tick = 0; tick < 3; tick++) await sleep(20);
      expect(settled).toBe(false);
      controller.abort(new Error("stopped by the test"));
      await expect(run).rejects.toThrow("stopped by the test");
    },
  );
});

describe("agentry workflow run", () => {
  let server: ModelServer | undefined;
  let child: ChildProcess | undefined;
  afterEach(async () => {
    if (child && child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    child = undefined;
    await server?.close();
    server = undefined;
  });

  /** Starts `agentry workflow run` on a script that logs "spinning", then runs `body`. */
  async function startRun(body: string, flags: string[] = []) {
    const ws = await makeWorkspace({
      "runaway.js": `export const meta = { name: "runaway" };\nlog("spinning");\n${body}\n`,
    });
    server = await startModelServer([{ text: "never asked" }]);
    child = spawnCli(["workflow", "run", "runaway.js", "--permission-mode", "bypass", ...flags], {
      cwd: ws.dir,
      env: { ...ws.env, ...providerEnv(server, "anthropic") },
    });
    const spawned = child;
    let stderr = "";
    const spinning = new Promise<void>((resolve) => {
      spawned.stderr?.on("data", (chunk: Buffer) => {
        stderr += chunk.toString("utf8");
        if (stderr.includes("  spinning\n")) resolve();
      });
    });
    const done = finished(spawned);
    return { spinning, done: () => withinBound(done, spawned) };
  }

  /** The process's end; a process still running after the bound is killed and the test fails. */
  async function withinBound(done: Promise<CliResult>, process: ChildProcess): Promise<CliResult> {
    const timer = setTimeout(() => process.kill("SIGKILL"), STOPPED_WITHIN_MS);
    try {
      const result = await done;
      expect(
        result.signal,
        `the run was not stopped; it was killed after ${STOPPED_WITHIN_MS} ms`,
      ).toBeNull();
      return result;
    } finally {
      clearTimeout(timer);
    }
  }

  test.each(SCRIPTS)(
    "--timeout stops %s: budget_exceeded, exit code 4",
    TEST_TIMEOUT,
    async (_name, body) => {
      const run = await startRun(body, ["--timeout", "1"]);
      const result = await run.done();
      expect(result.stderr).toContain("workflow budget_exceeded");
      expect(result.code, result.stderr).toBe(4);
      expect(server?.requests).toHaveLength(0);
    },
  );

  test.each(SCRIPTS)(
    "SIGTERM stops %s: the run is recorded cancelled, exit code 130",
    TEST_TIMEOUT,
    async (_name, body) => {
      const run = await startRun(body);
      await run.spinning;
      child?.kill("SIGTERM");
      const result = await run.done();
      // Its outcome was reported (the run wound down), not cut short by the forced exit.
      expect(result.stderr).toContain("workflow cancelled");
      expect(result.stderr).toContain("interrupted (SIGTERM)");
      expect(result.code, result.stderr).toBe(130);
    },
  );

  test("Ctrl-C (SIGINT) stops a loop that allocates: exit code 130", TEST_TIMEOUT, async () => {
    const run = await startRun(RUNAWAY["a loop that allocates 8 MiB strings"]);
    await run.spinning;
    child?.kill("SIGINT");
    const result = await run.done();
    expect(result.stderr).toContain("workflow cancelled");
    expect(result.code, result.stderr).toBe(130);
  });

  test(
    "the default compute limit (5 s) stops a loop that allocates: the run failed, exit code 1",
    TEST_TIMEOUT,
    async () => {
      const run = await startRun(RUNAWAY["a loop that allocates 8 MiB strings"]);
      const result = await run.done();
      expect(result.stderr).toContain("workflow failed");
      expect(result.stderr).toMatch(/computed too long without awaiting anything/);
      expect(result.code, result.stderr).toBe(1);
    },
  );
});
