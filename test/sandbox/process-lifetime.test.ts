import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { finished, makeWorkspace, spawnCli, type TestWorkspace } from "../cli/support/cli-process.ts";
import { testServerConfig } from "../support/mcp-server-process.ts";
import { type ModelServer, startModelServer } from "../support/model-server.ts";
import { isRunning, pidFrom, processesRunning, until, waitFor } from "../support/processes.ts";
import { tempDir } from "../support/temp-dir.ts";
import { describeWatchdogs, watchdogsOf } from "../support/watchdogs.ts";
import { sandboxBackend } from "./support.ts";

// Acceptance of issue 8: when agentry dies (kill -9) or its terminal goes (SIGHUP) while a subagent
// runs `sleep 300` and a backgrounded `sleep 300 &`, no process of the run is left 2 s later.

const available = await sandboxBackend();

let ws: TestWorkspace | undefined;
let server: ModelServer | undefined;
let sleeps: string[] = [];
afterEach(async () => {
  for (const line of sleeps) for (const pid of processesRunning(line)) process.kill(pid, "SIGKILL");
  await server?.close();
  await ws?.cleanup();
  ws = undefined;
  server = undefined;
});

async function startRun(sandbox: boolean, extraArgs: string[] = []) {
  const marker = `${process.pid}${Math.floor(Math.random() * 1e6)}`;
  const foreground = `sleep 300.${marker}`;
  const background = `sleep 301.${marker}`;
  sleeps = [foreground, background];
  ws = await makeWorkspace({ "a.txt": "a" });
  server = await startModelServer([
    { toolCalls: [{ name: "task", args: { description: "wait a while", prompt: "sleep" } }] },
    { toolCalls: [{ name: "bash", args: { command: `${background} & ${foreground}`, timeout: 600 } }] },
    { text: "never reached" },
    { text: "never reached" },
  ]);
  const child = spawnCli(["run", "--permission-mode", "bypass", ...extraArgs, "wait"], {
    cwd: ws.dir,
    env: {
      ...ws.env,
      ANTHROPIC_BASE_URL: server.anthropicBaseUrl,
      ANTHROPIC_API_KEY: "k",
      ...(sandbox ? {} : { AGENTRY_SANDBOX: "off" }),
    },
  });
  const done = finished(child);
  await waitFor(() => sleeps.every((line) => processesRunning(line).length === 1), 15_000);
  return { child, done };
}

const left = () => sleeps.flatMap((line) => processesRunning(line));

/** The bound the issue names: a run's processes are gone 2 s after agentry is. */
const GONE_WITHIN_MS = 2_000;

describe("an MCP server agentry started", () => {
  it("ends when agentry is killed with SIGKILL", async () => {
    const pidFile = join(await tempDir("agentry-mcp-"), "server.pid");
    const config = JSON.stringify({ mcpServers: { lifetime: testServerConfig("--pid-file", pidFile) } });
    const { child, done } = await startRun(false, ["--mcp-config", config]);
    const server = await pidFrom(pidFile);
    expect(isRunning(server)).toBe(true);
    child.kill("SIGKILL");
    await done;
    expect(await until(() => !isRunning(server), GONE_WITHIN_MS)).toBe(true);
  });
});

for (const sandbox of [true, false]) {
  const label = sandbox ? "in the OS sandbox" : "without an OS sandbox";
  describe.skipIf(sandbox && available.skip !== undefined)(`a subagent's commands ${label}`, () => {
    it("end when agentry is killed with SIGKILL, the backgrounded one too", async () => {
      const { child, done } = await startRun(sandbox);
      const watchdogs = child.pid === undefined ? [] : watchdogsOf(child.pid);
      child.kill("SIGKILL");
      await done;
      expect(
        await until(() => left().length === 0, GONE_WITHIN_MS),
        `left: ${left().join(", ")}; ${describeWatchdogs(watchdogs)}`,
      ).toBe(true);
    });

    it("end when agentry gets SIGHUP, which it handles as SIGTERM", async () => {
      const { child, done } = await startRun(sandbox);
      child.kill("SIGHUP");
      const result = await done;
      expect(await until(() => left().length === 0, GONE_WITHIN_MS), `left: ${left().join(", ")}`).toBe(true);
      expect(result.code).toBe(130);
    });
  });
}
