import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { nodeOperations as ops } from "../../../src/tools/node-operations.ts";
import { isRunning, until } from "../../support/processes.ts";
import { tempDir } from "../../support/temp-dir.ts";
import { scaled } from "../../support/time-scale.ts";

let dir: string;
let pids: number[] = [];
beforeEach(async () => {
  dir = await tempDir("agentry-kill-");
  pids = [];
});
afterEach(async () => {
  // Never leave a stray sleep behind, even when a test fails.
  for (const pid of pids) if (isRunning(pid)) process.kill(pid, "SIGKILL");
});

/**
 * A shell that starts a background `sleep` and then sleeps itself; both pids go to files. Both sleeps
 * outlast any test bound: a kill that failed shows as a hang, or as a process still running.
 */
const tree = (prefix = "") =>
  `${prefix}sleep 600 & echo $! > ${join(dir, "child")}; echo $$ > ${join(dir, "shell")}; echo ready; sleep 600`;

async function recordedPids(): Promise<number[]> {
  const read = async (name: string) => Number(await readFile(join(dir, name), "utf8"));
  pids = [await read("shell"), await read("child")];
  return pids;
}

describe("killing a command's process group", () => {
  it("on timeout, kills the shell and its children and says it timed out", async () => {
    // Long enough for the shell to say "ready" on a loaded machine.
    const timeoutMs = scaled(500);
    const result = await ops.exec(tree(), { cwd: dir, signal: new AbortController().signal, timeoutMs });
    expect(result).toMatchObject({ timedOut: true, aborted: false, exitCode: null, output: "ready\n" });
    for (const pid of await recordedPids()) expect(await until(() => !isRunning(pid), 2000)).toBe(true);
  });

  it("on abort, kills the shell and its children", async () => {
    const controller = new AbortController();
    const pending = ops.exec(tree(), {
      cwd: dir,
      signal: controller.signal,
      timeoutMs: 60_000,
      onOutput: (chunk) => {
        if (chunk.includes("ready")) controller.abort();
      },
    });
    const result = await pending;
    expect(result).toMatchObject({ aborted: true, timedOut: false });
    const [shell, child] = await recordedPids();
    // By the time exec resolves, the group is gone (or SIGKILL has been sent to it).
    expect(await until(() => !isRunning(shell!) && !isRunning(child!), 500)).toBe(true);
  });

  it("escalates to SIGKILL when the processes ignore SIGTERM", async () => {
    const controller = new AbortController();
    const result = await ops.exec(tree("trap '' TERM; "), {
      cwd: dir,
      signal: controller.signal,
      // Its own timeout (which kills with SIGKILL too) must not be what ends it.
      timeoutMs: 10 * 60_000,
      onOutput: (chunk) => {
        if (chunk.includes("ready")) controller.abort();
      },
    });
    expect(result.aborted).toBe(true);
    for (const pid of await recordedPids()) expect(await until(() => !isRunning(pid), 2000)).toBe(true);
  });
});
