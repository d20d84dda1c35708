import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { openMcpServers } from "../../src/mcp/mcp-servers.ts";
import { testServerConfig } from "../support/mcp-server-process.ts";
import { isRunning, pidFrom } from "../support/processes.ts";
import { makeContext, makeSandbox, runTool, type Sandbox } from "../tools/tool-context.ts";

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await makeSandbox();
});

describe("servers that cannot start", () => {
  it("are failures with a message that says what to do, while the other servers' tools work", async () => {
    const hangPid = join(sandbox.outside, "hang.pid");
    const started = Date.now();
    const set = await openMcpServers(
      {
        good: testServerConfig(),
        crash: testServerConfig("--crash-on-start"),
        hang: testServerConfig("--hang-on-start", "--pid-file", hangPid),
        missing: { command: "no-such-binary", args: ["--stdio"] },
        absent: { command: "/nowhere/bin/server" },
        nodir: { ...testServerConfig(), cwd: "no/such/dir" },
      },
      // Long enough for the good server to start on a loaded machine (CI), short enough for the hang.
      { cwd: sandbox.workspace, env: process.env, timeoutMs: 4_000 },
    );
    try {
      // All in parallel: the whole set takes about one timeout, not the sum.
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(set.servers.map((server) => server.name)).toEqual(["good"]);
      const failures = Object.fromEntries(set.failures.map((failure) => [failure.server, failure.message]));
      expect(Object.keys(failures)).toEqual(["crash", "hang", "missing", "absent", "nodir"]);
      expect(failures.crash).toBe(
        "exited with code 3 before it finished starting. Run the command by hand to see why.\n" +
          "Its last stderr lines:\n  starting test server\n  fatal: the database is locked",
      );
      expect(failures.hang).toBe(
        "did not answer within 4 s, so it was stopped. Check that it is an MCP server and starts quickly when run by hand.\n" +
          "Its last stderr lines:\n  warming up forever",
      );
      expect(failures.missing).toBe(
        'command "no-such-binary" was not found on PATH. Install it, or set "command" to its full path.',
      );
      expect(failures.absent).toBe(
        'command "/nowhere/bin/server" does not exist. Fix "command" in its configuration.',
      );
      expect(failures.nodir).toBe(
        `its working directory ${join(sandbox.workspace, "no/such/dir")} does not exist. Fix "cwd".`,
      );
      expect(isRunning(await pidFrom(hangPid))).toBe(false);

      const echo = set.tools.find((tool) => tool.name === "mcp__good__echo");
      expect(echo).toBeDefined();
      const { ctx } = makeContext(sandbox.workspace);
      expect((await runTool(echo!, { text: "ok" }, ctx)).content).toBe("echo: ok");
    } finally {
      await set.close();
    }
  });

  it("stop starting when the signal aborts, and their processes end", async () => {
    const pidFile = join(sandbox.outside, "cancelled.pid");
    const controller = new AbortController();
    const opening = openMcpServers(
      { slowpoke: testServerConfig("--hang-on-start", "--pid-file", pidFile) },
      { cwd: sandbox.workspace, env: process.env, signal: controller.signal },
    );
    // Abort once the server process really runs (on a loaded machine Node may take a while to start).
    const pid = await pidFrom(pidFile);
    const abortedAt = Date.now();
    controller.abort();
    const set = await opening;
    expect(Date.now() - abortedAt).toBeLessThan(3_000);
    expect(set.failures).toEqual([{ server: "slowpoke", message: "cancelled before it finished starting." }]);
    expect(set.tools).toEqual([]);
    expect(isRunning(pid)).toBe(false);
    await set.close();
  });
});
