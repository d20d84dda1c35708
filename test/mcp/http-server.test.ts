import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openMcpServers } from "../../src/mcp/mcp-servers.ts";
import { type AnyTool, ToolError } from "../../src/tools/tool.ts";
import { TEST_SERVER_INSTRUCTIONS } from "../support/mcp-server.ts";
import { type McpHttpServer, startMcpHttpServer } from "../support/mcp-server-http.ts";
import { testServerConfig } from "../support/mcp-server-process.ts";
import { makeContext, makeSandbox, runTool, type Sandbox } from "../tools/tool-context.ts";

let sandbox: Sandbox;
let server: McpHttpServer;
beforeAll(async () => {
  sandbox = await makeSandbox();
  server = await startMcpHttpServer({ token: "t0ken", cwd: sandbox.workspace });
});
afterAll(async () => {
  await server?.close();
});

const byName = (tools: AnyTool[], name: string) => tools.find((tool) => tool.name === name) as AnyTool;

describe("a Streamable HTTP server", () => {
  it("lists and calls tools with the configured headers", async () => {
    const set = await openMcpServers(
      { remote: { type: "http", url: server.url, headers: { Authorization: "Bearer t0ken" } } },
      { cwd: sandbox.workspace, env: {} },
    );
    try {
      expect(set.failures).toEqual([]);
      expect(set.servers[0]).toMatchObject({ name: "remote", instructions: TEST_SERVER_INSTRUCTIONS });
      expect(set.tools.map((tool) => tool.name)).toContain("mcp__remote__add");
      const { ctx } = makeContext(sandbox.workspace);
      expect(
        (await runTool(byName(set.tools, "mcp__remote__echo"), { text: "over http" }, ctx)).content,
      ).toBe("echo: over http");
      expect((await runTool(byName(set.tools, "mcp__remote__add"), { a: 1, b: 1 }, ctx)).content).toBe(
        '{"sum":2}',
      );
      await expect(runTool(byName(set.tools, "mcp__remote__fail"), {}, ctx)).rejects.toThrow(
        new ToolError("the fail tool always fails"),
      );
      expect(server.authorizations.at(-1)).toBe("Bearer t0ken");
    } finally {
      await set.close();
    }
  });

  it("ends a call quickly when the run is aborted", async () => {
    const set = await openMcpServers(
      { remote: { type: "http", url: server.url, headers: { Authorization: "Bearer t0ken" } } },
      { cwd: sandbox.workspace, env: {} },
    );
    try {
      const controller = new AbortController();
      const { ctx } = makeContext(sandbox.workspace, { signal: controller.signal });
      setTimeout(() => controller.abort(), 100);
      // Longer than any test bound: a call the abort did not end would hang.
      await expect(
        runTool(byName(set.tools, "mcp__remote__slow"), { ms: 10 * 60_000 }, ctx),
      ).rejects.toThrow();
    } finally {
      await set.close();
    }
  });

  it("is a failure saying what to do when the token is missing (401), while other servers work", async () => {
    const set = await openMcpServers(
      { locked: { type: "http", url: server.url }, local: testServerConfig() },
      { cwd: sandbox.workspace, env: process.env },
    );
    try {
      expect(set.failures).toEqual([
        {
          server: "locked",
          message: `HTTP 401 Unauthorized from ${server.url}: the server wants credentials. Put them in its "headers" (e.g. "Authorization": "Bearer \${MY_TOKEN}"); OAuth sign-in is not supported.`,
        },
      ]);
      const { ctx } = makeContext(sandbox.workspace);
      expect((await runTool(byName(set.tools, "mcp__local__echo"), { text: "x" }, ctx)).content).toBe(
        "echo: x",
      );
    } finally {
      await set.close();
    }
  });

  it("is a failure when nothing listens at the url", async () => {
    const gone = await startMcpHttpServer();
    await gone.close();
    const set = await openMcpServers(
      { gone: { type: "http", url: gone.url } },
      { cwd: sandbox.workspace, env: {} },
    );
    expect(set.failures).toEqual([
      {
        server: "gone",
        message: `nothing is listening at ${gone.url} (connection refused). Is the server running?`,
      },
    ]);
    await set.close();
  });

  it("makes calls fail with a clear ToolError when the server goes away mid-run", async () => {
    const doomed = await startMcpHttpServer();
    const set = await openMcpServers(
      { doomed: { type: "http", url: doomed.url } },
      { cwd: sandbox.workspace, env: {} },
    );
    try {
      await doomed.close();
      const { ctx } = makeContext(sandbox.workspace);
      // The client's kept-alive socket may see the close first ("other side closed"), else a new one is refused.
      const call = runTool(byName(set.tools, "mcp__doomed__echo"), { text: "x" }, ctx);
      await expect(call).rejects.toBeInstanceOf(ToolError);
      await expect(call).rejects.toThrow(
        /^MCP server "doomed" could not run echo: (nothing is listening at \S+ \(connection refused\)\. Is the server running\?|could not reach \S+: other side closed\.)$/,
      );
    } finally {
      await set.close();
    }
  });
});
