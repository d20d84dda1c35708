import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { nodeOperations as ops } from "../../src/tools/node-operations.ts";
import { isRunning, until } from "../support/processes.ts";
import { tempDir } from "../support/temp-dir.ts";

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

/** A shell that starts a background `sleep 100` and then sleeps itself; both pids go to files. */
const tree = (prefix = "") =>
  `${prefix}sleep 100 & echo $! > ${join(dir, "child")}; echo $$ > ${join(dir, "shell")}; echo ready; sleep 100`;

async function recordedPids(): Promise<number[]> {
  const read = async (name: string) => Number(await readFile(join(dir, name), "utf8"));
  pids = [await read("shell"), await read("child")];
  return pids;
}

/** Generous for a loaded machine: a kill that failed would leave `sleep 100` running for 100 s. */
const KILLED_BY_MS = 10_000;

describe("killing a command's process group", () => {
  it("on timeout, kills the shell and its children and says it timed out", async () => {
    const started = Date.now();
    const result = await ops.exec(tree(), { cwd: dir, signal: new AbortController().signal, timeoutMs: 500 });
    expect(result).toMatchObject({ timedOut: true, aborted: false, exitCode: null, output: "ready\n" });
    expect(Date.now() - started).toBeLessThan(KILLED_BY_MS);
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
    const started = Date.now();
    const result = await ops.exec(tree("trap '' TERM; "), {
      cwd: dir,
      signal: controller.signal,
      timeoutMs: 60_000,
      onOutput: (chunk) => {
        if (chunk.includes("ready")) controller.abort();
      },
    });
    expect(result.aborted).toBe(true);
    expect(Date.now() - started).toBeLessThan(KILLED_BY_MS);
    for (const pid of await recordedPids()) expect(await until(() => !isRunning(pid), 2000)).toBe(true);
  });
});
