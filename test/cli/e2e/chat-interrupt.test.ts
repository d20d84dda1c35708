import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { cliBin } from "../../support/cli-bin.ts";
import { type ModelServer, startModelServer } from "../../support/model-server.ts";
import { isRunning, processesRunning, waitFor } from "../../support/processes.ts";
import { finished, makeWorkspace, spawnCli, type TestWorkspace } from "../support/cli-process.ts";
import { providerEnv } from "../support/provider-env.ts";

let ws: TestWorkspace | undefined;
let server: ModelServer | undefined;
let sleeper: number | undefined;
/**
 * A duration no other process uses, so the command's `sleep` can be found by its command line; longer
 * than any test bound, so a turn that waited for it instead of killing it would hang its test.
 */
const SLEEP = `600.${process.pid}${Math.floor(Math.random() * 1000)}`;
afterEach(async () => {
  if (sleeper !== undefined) {
    try {
      process.kill(sleeper, "SIGKILL");
    } catch {
      // already gone, as it should be
    }
  }
  await server?.close();
  server = undefined;
  ws = undefined;
  sleeper = undefined;
});

describe("signals in agentry chat", () => {
  it("aborts only that turn: its command dies, the next line still runs, and the session exits 0", async () => {
    ws = await makeWorkspace();
    server = await startModelServer([
      {
        toolCalls: [
          { name: "bash", args: { command: `sh -c 'echo started > sleeper.pid; exec sleep ${SLEEP}'` } },
        ],
      },
      { text: "Still here." },
    ]);
    const child = spawnCli(["chat", "--permission-mode", "bypass"], {
      cwd: ws.dir,
      env: { ...ws.env, ...providerEnv(server, "anthropic") },
      input: "sleep please\nare you there?\n",
    });
    const done = finished(child);
    const pidFile = join(ws.dir, "sleeper.pid");
    await waitFor(() => existsSync(pidFile) && readFileSync(pidFile, "utf8").trim() !== "", 10_000);
    // The command may run in a pid namespace (the OS sandbox): find its sleep by command line.
    await waitFor(() => processesRunning(`sleep ${SLEEP}`).length === 1, 10_000);
    sleeper = processesRunning(`sleep ${SLEEP}`)[0] as number;
    expect(isRunning(sleeper)).toBe(true);

    child.kill("SIGINT");
    const result = await done;
    expect(result.code, result.stderr).toBe(0);
    const pid = sleeper;
    await waitFor(() => !isRunning(pid), 1000).catch(() => {});
    expect(isRunning(pid), `sleep (pid ${pid}) is still running`).toBe(false);

    expect(result.stderr).toMatch(/^aborted · 1 turn/m);
    expect(result.stdout).toBe("Still here.\n");
    expect(server.requests).toHaveLength(2);
    expect(JSON.stringify(server.requests[1]?.body)).toContain("are you there?");

    // One session: the aborted turn is recorded, and the next turn completed in the same transcript.
    const transcripts = Object.values(await ws.transcripts());
    expect(transcripts).toHaveLength(1);
    const entries = (transcripts[0]?.parsed ?? []) as Array<Record<string, unknown>>;
    const outcomes = entries.filter((entry) => entry.type === "outcome").map((entry) => entry.outcome);
    expect(outcomes).toMatchObject([{ status: "aborted" }, { status: "completed" }]);
  });

  it("exits 0 on a second Ctrl-C at an empty prompt, without running anything", async () => {
    ws = await makeWorkspace();
    server = await startModelServer([{ text: "unused" }]);
    const { child, done, stderr } = await startAtPrompt(ws, server);
    child.kill("SIGINT");
    await waitFor(() => stderr().includes("press Ctrl-C again to exit"), 5000);
    child.kill("SIGINT");
    const result = await done;
    expect(result.code, result.stderr).toBe(0);
    expect(server.requests).toHaveLength(0);
  });

  it("ends the session with 130 on SIGTERM", async () => {
    ws = await makeWorkspace();
    server = await startModelServer([{ text: "unused" }]);
    const { child, done } = await startAtPrompt(ws, server);
    child.kill("SIGTERM");
    const result = await done;
    expect(result.code, result.stderr).toBe(130);
    expect(server.requests).toHaveLength(0);
  });
});

/** `agentry chat` with its stdin left open (spawnCli would close it), once it waits at its prompt. */
async function startAtPrompt(workspace: TestWorkspace, model: ModelServer) {
  const child = spawn(process.execPath, [cliBin(), "chat"], {
    cwd: workspace.dir,
    env: { ...workspace.env, ...providerEnv(model, "anthropic") },
    stdio: ["pipe", "pipe", "pipe"],
  });
  const done = finished(child);
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer | string) => {
    stderr += chunk.toString();
  });
  await waitFor(() => stderr.includes("/help for commands"), 10_000);
  return { child, done, stderr: () => stderr };
}
