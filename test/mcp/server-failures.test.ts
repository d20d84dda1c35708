import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { openMcpServers } from "../../src/mcp/mcp-servers.ts";
import { testServerConfig } from "../support/mcp-server-process.ts";
import { isRunning, pidFrom, waitFor } from "../support/processes.ts";
import { scaled } from "../support/time-scale.ts";
import { makeContext, makeSandbox, runTool, type Sandbox } from "../tools/tool-context.ts";

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await makeSandbox();
});

describe("servers that cannot start", () => {
  it("are failures with a message that says what to do, while the other servers' tools work", async () => {
    const hangPids = [join(sandbox.outside, "hang.pid"), join(sandbox.outside, "hang2.pid")];
    // Long enough for the good server to start on a loaded machine, short enough for the hangs.
    const timeoutMs = scaled(4_000);
    const opening = openMcpServers(
      {
        good: testServerConfig(),
        crash: testServerConfig("--crash-on-start"),
        hang: testServerConfig("--hang-on-start", "--pid-file", hangPids[0]!),
        hang2: testServerConfig("--hang-on-start", "--pid-file", hangPids[1]!),
        missing: { command: "no-such-binary", args: ["--stdio"] },
        absent: { command: "/nowhere/bin/server" },
        nodir: { ...testServerConfig(), cwd: "no/such/dir" },
      },
      { cwd: sandbox.workspace, env: process.env, timeoutMs },
    );
    // All at once: one after the other, the second hanging server would start only once the first
    // was stopped at its timeout.
    await waitFor(
      () => hangPids.every((file) => existsSync(file) && isRunning(Number(readFileSync(file, "utf8")) || -1)),
      10_000,
      "both hanging servers to run side by side",
    );
    const set = await opening;
    try {
      expect(set.servers.map((server) => server.name)).toEqual(["good"]);
      const failures = Object.fromEntries(set.failures.map((failure) => [failure.server, failure.message]));
      expect(Object.keys(failures)).toEqual(["crash", "hang", "hang2", "missing", "absent", "nodir"]);
      expect(failures.crash).toBe(
        "exited with code 3 before it finished starting. Run the command by hand to see why.\n" +
          "Its last stderr lines:\n  starting test server\n  fatal: the database is locked",
      );
      for (const hang of [failures.hang, failures.hang2])
        expect(hang).toBe(
          `did not answer within ${Math.round(timeoutMs / 100) / 10} s, so it was stopped. Check that it is an MCP server and starts quickly when run by hand.\n` +
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
      for (const file of hangPids) expect(isRunning(await pidFrom(file))).toBe(false);

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
    controller.abort();
    // Not stopped by the abort, it would fail later, as a server that did not answer in time.
    const set = await opening;
    expect(set.failures).toEqual([{ server: "slowpoke", message: "cancelled before it finished starting." }]);
    expect(set.tools).toEqual([]);
    expect(isRunning(pid)).toBe(false);
    await set.close();
  });
});
