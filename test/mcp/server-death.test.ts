import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { openMcpServers } from "../../src/mcp/mcp-servers.ts";
import { type AnyTool, ToolError } from "../../src/tools/tool.ts";
import { testServerConfig } from "../support/mcp-server-process.ts";
import { isRunning, pidFrom, waitFor } from "../support/processes.ts";
import { makeContext, makeSandbox, runTool, type Sandbox } from "../tools/tool-context.ts";

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await makeSandbox();
});

const byName = (tools: AnyTool[], name: string) => tools.find((tool) => tool.name === name) as AnyTool;

describe("a stdio server that dies during the run", () => {
  it("makes its tools fail with a ToolError that names the server, the exit and the tools affected", async () => {
    const pidFile = join(sandbox.outside, "exits.pid");
    const set = await openMcpServers(
      { test: testServerConfig("--exit-after-first-call", "--pid-file", pidFile) },
      { cwd: sandbox.workspace, env: process.env },
    );
    try {
      const { ctx } = makeContext(sandbox.workspace);
      const echo = byName(set.tools, "mcp__test__echo");
      expect((await runTool(echo, { text: "first" }, ctx)).content).toBe("echo: first");
      const pid = await pidFrom(pidFile);
      await waitFor(() => !isRunning(pid));
      const second = runTool(echo, { text: "second" }, ctx);
      await expect(second).rejects.toBeInstanceOf(ToolError);
      await expect(second).rejects.toThrow(
        'MCP server "test" is no longer running: it exited with code 0\n' +
          "Its last stderr lines:\n  exiting after the first call\n" +
          `Its tools (${set.servers[0]?.tools.join(", ")}) cannot be used for the rest of this run; go on without them, or report that you need them.`,
      );
    } finally {
      await set.close();
    }
  });

  it("fails a call in flight at once when the server is killed", async () => {
    const pidFile = join(sandbox.outside, "killed.pid");
    const set = await openMcpServers(
      { test: testServerConfig("--pid-file", pidFile) },
      { cwd: sandbox.workspace, env: process.env },
    );
    try {
      const { ctx } = makeContext(sandbox.workspace);
      const pid = await pidFrom(pidFile);
      // Longer than any test bound: had the death gone unnoticed, the call would hang.
      const call = runTool(byName(set.tools, "mcp__test__slow"), { ms: 10 * 60_000 }, ctx);
      setTimeout(() => process.kill(pid, "SIGKILL"), 200);
      await expect(call).rejects.toThrow(
        /^MCP server "test" is no longer running: it was killed by SIGKILL\n/,
      );
    } finally {
      await set.close();
    }
  });
});
