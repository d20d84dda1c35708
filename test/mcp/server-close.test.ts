import { readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { openMcpServers } from "../../src/mcp/mcp-servers.ts";
import { KILL_GRACE_MS, STDIN_CLOSE_GRACE_MS } from "../../src/mcp/stdio-process-transport.ts";
import { MCP_SERVER_MAIN, testServerConfig } from "../support/mcp-server-process.ts";
import { isRunning, pidFrom } from "../support/processes.ts";
import { makeContext, makeSandbox, runTool, type Sandbox } from "../tools/tool-context.ts";

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await makeSandbox();
});

describe("close()", () => {
  it("ends a stdio server's process, and is idempotent", async () => {
    const pidFile = join(sandbox.outside, "server.pid");
    const exitFile = join(sandbox.outside, "server.exit");
    const set = await openMcpServers(
      { test: testServerConfig("--pid-file", pidFile, "--exit-file", exitFile) },
      { cwd: sandbox.workspace, env: process.env },
    );
    const pid = await pidFrom(pidFile);
    expect(isRunning(pid)).toBe(true);
    await Promise.all([set.close(), set.close()]);
    expect(isRunning(pid)).toBe(false);
    // The server exits by itself when its stdin closes: no signal was needed.
    expect(readFileSync(exitFile, "utf8")).toBe("exited");
    await set.close();
  });

  it("kills a server that ignores stdin and SIGTERM after the grace periods", async () => {
    const pidFile = join(sandbox.outside, "stubborn.pid");
    const set = await openMcpServers(
      { stubborn: testServerConfig("--ignore-sigterm", "--pid-file", pidFile) },
      { cwd: sandbox.workspace, env: process.env },
    );
    expect(set.failures).toEqual([]);
    const pid = await pidFrom(pidFile);
    const started = Date.now();
    await set.close();
    expect(isRunning(pid)).toBe(false);
    expect(Date.now() - started).toBeGreaterThanOrEqual(STDIN_CLOSE_GRACE_MS + KILL_GRACE_MS - 50);
  });

  it("ends the whole process group of a wrapped server (a shell in front, as with npx)", async () => {
    const serverPid = join(sandbox.outside, "wrapped.pid");
    const shellPid = join(sandbox.outside, "shell.pid");
    const script = `echo $$ > '${shellPid}'; '${process.execPath}' '${MCP_SERVER_MAIN}' --ignore-sigterm --pid-file '${serverPid}'; echo done`;
    const set = await openMcpServers(
      { wrapped: { command: "/bin/sh", args: ["-c", script] } },
      { cwd: sandbox.workspace, env: process.env },
    );
    expect(set.failures).toEqual([]);
    const { ctx } = makeContext(sandbox.workspace);
    const echo = set.tools.find((tool) => tool.name === "mcp__wrapped__echo");
    expect((await runTool(echo!, { text: "via sh" }, ctx)).content).toBe("echo: via sh");
    const pids = [await pidFrom(shellPid), await pidFrom(serverPid)];
    expect(pids.map(isRunning)).toEqual([true, true]);
    await set.close();
    expect(pids.map(isRunning)).toEqual([false, false]);
  });
});
