import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { type ModelServer, startModelServer } from "../../support/model-server.ts";
import { isRunning, processesRunning, waitFor } from "../../support/processes.ts";
import { finished, makeWorkspace, spawnCli, type TestWorkspace } from "../support/cli-process.ts";
import { providerEnv } from "../support/provider-env.ts";

let ws: TestWorkspace | undefined;
let server: ModelServer | undefined;
let sleeper: number | undefined;
/**
 * A duration no other process uses, so the command's `sleep` can be found by its command line; longer
 * than any test bound, so a run that waited for it instead of killing it would hang its test.
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

describe("SIGINT during a run", () => {
  it("aborts promptly, kills the running command and records the abort", async () => {
    ws = await makeWorkspace();
    server = await startModelServer([
      {
        toolCalls: [
          { name: "bash", args: { command: `sh -c 'echo started > sleeper.pid; exec sleep ${SLEEP}'` } },
        ],
      },
      { text: "should never be asked for" },
    ]);
    const child = spawnCli(["run", "--permission-mode", "bypass", "sleep please"], {
      cwd: ws.dir,
      env: { ...ws.env, ...providerEnv(server, "anthropic") },
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
    expect(result.code, result.stderr).toBe(130);
    expect(result.stderr).toContain("aborted");
    const pid = sleeper;
    await waitFor(() => !isRunning(pid), 1000).catch(() => {});
    expect(isRunning(pid), `sleep (pid ${pid}) is still running`).toBe(false);
    expect(server.requests).toHaveLength(1);

    const [transcript] = Object.values(await ws.transcripts());
    const entries = (transcript?.parsed ?? []) as Array<Record<string, unknown>>;
    expect(entries.some((entry) => entry.type === "abort")).toBe(true);
    expect(entries.at(-1)).toMatchObject({ type: "outcome", outcome: { status: "aborted" } });
  });

  it("aborts a model call that hangs", async () => {
    ws = await makeWorkspace();
    server = await startModelServer([{ hang: true }]);
    const child = spawnCli(["run", "--output-format", "json", "hi"], {
      cwd: ws.dir,
      env: { ...ws.env, ...providerEnv(server, "anthropic") },
    });
    const done = finished(child);
    await waitFor(() => (server?.requests.length ?? 0) > 0, 10_000);
    // The call never ends by itself: not aborted, the run would hang.
    child.kill("SIGINT");
    const result = await done;
    expect(result.code).toBe(130);
    expect(JSON.parse(result.stdout)).toMatchObject({ type: "result", outcome: "aborted" });
  });
});

const MCP_MAIN = fileURLToPath(new URL("../../support/mcp-server-main.ts", import.meta.url));

describe("the aborted line", () => {
  it("is printed once when the run's shutdown outlasts the grace period, and once on a second Ctrl-C", async () => {
    ws = await makeWorkspace();
    await ws.trust();
    const pidFile = join(ws.dir, "mcp.pid");
    // An MCP server that ignores SIGTERM keeps the shutdown busy for ~2 s after the run reported its abort.
    await ws.write(
      "agentry.json",
      JSON.stringify({
        mcpServers: {
          stubborn: {
            command: process.execPath,
            args: [MCP_MAIN, "--ignore-sigterm", "--pid-file", pidFile],
          },
        },
      }),
    );
    server = await startModelServer([{ hang: true }]);
    const results = [];
    for (const secondSignal of [false, true]) {
      const child = spawnCli(["run", "hi"], {
        cwd: ws.dir,
        env: { ...ws.env, ...providerEnv(server, "anthropic") },
      });
      let stderr = "";
      child.stderr?.on("data", (chunk: Buffer | string) => {
        stderr += String(chunk);
      });
      const done = finished(child);
      const requests = server.requests.length;
      await waitFor(() => (server?.requests.length ?? 0) > requests, 10_000);
      child.kill("SIGINT");
      if (secondSignal) {
        await waitFor(() => stderr.includes("session "), 2_000);
        child.kill("SIGINT");
      }
      const result = await done;
      // The forced exit leaves the stubborn server behind; the next iteration starts its own.
      sleeper = Number(readFileSync(pidFile, "utf8"));
      if (isRunning(sleeper)) process.kill(sleeper, "SIGKILL");
      results.push({
        secondSignal,
        code: result.code,
        abortedLines: result.stderr.split("\n").filter((l) => l === "aborted").length,
      });
      expect(result.stderr).toMatch(/continue with: agentry run --resume/);
    }
    expect(results).toEqual([
      { secondSignal: false, code: 130, abortedLines: 1 },
      { secondSignal: true, code: 130, abortedLines: 1 },
    ]);
  });
});
