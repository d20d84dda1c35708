import { readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import {
  CHILD_MARK,
  wireMessages,
  wireSystem,
  wireToolNames,
} from "../../subagents/support/subagent-harness.ts";
import { type ModelServer, type RecordedRequest, startModelServer } from "../../support/model-server.ts";
import { isRunning, pidFrom, until } from "../../support/processes.ts";
import { tempDir } from "../../support/temp-dir.ts";
import { finished, makeWorkspace, runCli, spawnCli, type TestWorkspace } from "../support/cli-process.ts";
import { bodyText, providerEnv } from "../support/provider-env.ts";

const MCP_MAIN = fileURLToPath(new URL("../../support/mcp-server-main.ts", import.meta.url));

let ws: TestWorkspace | undefined;
let server: ModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  ws = undefined;
});

/** A stdio server entry that runs the test MCP server with Node 24 (this process's Node). */
const testServer = (...switches: string[]) => ({ command: process.execPath, args: [MCP_MAIN, ...switches] });

/** The model calls one tool with `args` on its first turn, then answers with what it saw. */
function callOnce(name: string, args: Record<string, unknown>) {
  return (request: RecordedRequest) =>
    wireMessages(request.body).length === 1 ? { toolCalls: [{ name, args }] } : { text: "done" };
}

async function run(args: string[], config: Record<string, unknown>, script: (r: RecordedRequest) => unknown) {
  ws = await makeWorkspace({ "agentry.json": JSON.stringify(config) });
  await ws.trust();
  server = await startModelServer(script as Parameters<typeof startModelServer>[0]);
  return runCli(["run", ...args], { cwd: ws.dir, env: { ...ws.env, ...providerEnv(server, "anthropic") } });
}

describe("MCP servers in agentry run", () => {
  it("gives the model the servers' tools as mcp__<server>__<tool>, calls them, and stops the server", async () => {
    const pidFile = join(await tempDir("agentry-mcp-"), "server.pid");
    const result = await run(
      ["--permission-mode", "bypass", "Echo hello"],
      { mcpServers: { test: testServer("--pid-file", pidFile) } },
      callOnce("mcp__test__echo", { text: "hello" }),
    );
    const pid = Number(await readFile(pidFile, "utf8"));
    await rm(pidFile, { force: true });
    expect(await until(() => !isRunning(pid), 3_000), `MCP server pid ${pid} outlived the run`).toBe(true);

    expect(result.code, result.stderr).toBe(0);
    const tools = wireToolNames(server?.requests[0]?.body ?? {});
    expect(tools).toEqual(expect.arrayContaining(["read", "bash", "mcp__test__echo", "mcp__test__add"]));
    expect(bodyText(server as ModelServer, 1)).toContain("echo: hello");
    // The server's instructions reach the system prompt.
    expect(wireSystem(server?.requests[0]?.body ?? {})).toContain("# MCP servers");
  });

  it("asks permission for an MCP tool: without a rule a non-interactive run refuses it; an allow rule lets it run", async () => {
    const refused = await run(
      ["Write a note"],
      { mcpServers: { test: testServer() } },
      callOnce("mcp__test__write_note", { path: "note.txt", text: "hi" }),
    );
    expect(refused.code, refused.stderr).toBe(0);
    expect(bodyText(server as ModelServer, 1)).toContain("mcp__test__write_note");
    expect(bodyText(server as ModelServer, 1)).toMatch(/denied|not allowed|permission/i);
    expect(await ws?.read("note.txt").catch(() => "absent")).toBe("absent");
    await server?.close();

    const allowed = await run(
      ["Write a note"],
      {
        mcpServers: { test: testServer() },
        permission: [{ permission: "mcp__test__*", pattern: "*", action: "allow" }],
      },
      callOnce("mcp__test__write_note", { path: "note.txt", text: "hi" }),
    );
    expect(allowed.code, allowed.stderr).toBe(0);
    expect(await ws?.read("note.txt")).toBe("hi");
  });

  it("a server that fails to start is a warning; the run goes on with the other servers' tools", async () => {
    const result = await run(
      ["--permission-mode", "bypass", "Echo hello"],
      { mcpServers: { broken: testServer("--crash-on-start"), test: testServer() } },
      callOnce("mcp__test__echo", { text: "still here" }),
    );

    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/warning: MCP server "broken" is not available.*database is locked/s);
    expect(bodyText(server as ModelServer, 1)).toContain("echo: still here");
    expect(
      wireToolNames(server?.requests[0]?.body ?? {}).some((name) => name.startsWith("mcp__broken__")),
    ).toBe(false);
  });

  it("--mcp-config reads Claude Code's .mcp.json format; an unset variable in it is a usage error (exit 2)", async () => {
    ws = await makeWorkspace({
      ".mcp.json": JSON.stringify({ mcpServers: { test: testServer() } }),
      "bad.json": JSON.stringify({ mcpServers: { x: { command: `$${"{"}NO_SUCH_VAR}` } } }),
    });
    server = await startModelServer(callOnce("mcp__test__add", { a: 2, b: 3 }) as never);
    const env = { ...ws.env, ...providerEnv(server, "anthropic") };
    const result = await runCli(["run", "--permission-mode", "bypass", "--mcp-config", ".mcp.json", "Add"], {
      cwd: ws.dir,
      env,
    });
    expect(result.code, result.stderr).toBe(0);
    expect(bodyText(server, 1)).toContain('\\"sum\\":5');

    const bad = await runCli(["run", "--mcp-config", "bad.json", "Add"], { cwd: ws.dir, env });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("NO_SUCH_VAR");
    // Nothing ran, so no transcript was started: only the first run's is there.
    expect(Object.keys(await ws.transcripts())).toHaveLength(1);
  });

  it("warns on stderr when an agent names an MCP server that does not run", async () => {
    const agents = JSON.stringify({
      notes: {
        description: "Keeps notes.",
        prompt: "You keep notes.",
        tools: ["read"],
        mcpServers: ["github"],
      },
    });
    const result = await run(
      ["--permission-mode", "bypass", "--agents", agents, "Delegate"],
      {},
      (request) => {
        if (wireSystem(request.body).includes(CHILD_MARK)) return { text: "child done" };
        return wireMessages(request.body).length === 1
          ? {
              toolCalls: [
                { name: "task", args: { description: "Notes", prompt: "go", subagent_type: "notes" } },
              ],
            }
          : { text: "done" };
      },
    );
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain(
      'warning: agent "notes" names MCP server "github" in mcpServers, but no such server runs in this session',
    );
  });

  it("subagents get the MCP tools too", async () => {
    const result = await run(
      ["--permission-mode", "bypass", "Delegate"],
      { mcpServers: { test: testServer() } },
      (request) => {
        const child = wireSystem(request.body).includes(CHILD_MARK);
        const first = wireMessages(request.body).length === 1;
        if (child)
          return first
            ? { toolCalls: [{ name: "mcp__test__echo", args: { text: "from child" } }] }
            : { text: "child done" };
        return first
          ? { toolCalls: [{ name: "task", args: { description: "Echo", prompt: "echo" } }] }
          : { text: "done" };
      },
    );
    expect(result.code, result.stderr).toBe(0);
    const childRequests = (server?.requests ?? []).filter((r) => wireSystem(r.body).includes(CHILD_MARK));
    expect(wireToolNames(childRequests[0]?.body ?? {})).toContain("mcp__test__echo");
    expect(JSON.stringify(childRequests[1]?.body)).toContain("echo: from child");
  });
});

describe("MCP servers in agentry chat", () => {
  it("start with the session, and /mcp lists them with their tools", async () => {
    ws = await makeWorkspace({ "agentry.json": JSON.stringify({ mcpServers: { test: testServer() } }) });
    await ws.trust();
    server = await startModelServer([{ text: "unused" }]);
    const result = await runCli(["chat"], {
      cwd: ws.dir,
      env: { ...ws.env, ...providerEnv(server, "anthropic") },
      input: "/mcp\n",
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/^ {2}test \(\d+ tools\): mcp__test__echo, mcp__test__add, /m);
    expect(server.requests).toHaveLength(0);

    const bare = await makeWorkspace();
    const none = await runCli(["chat"], {
      cwd: bare.dir,
      env: { ...bare.env, ...providerEnv(server, "anthropic") },
      input: "/mcp\n",
    });
    expect(none.code, none.stderr).toBe(0);
    expect(none.stderr).toContain("No MCP servers in this session");
  });
});

describe("Ctrl-C while MCP servers start", () => {
  it.each([["run", "Hello"], ["chat"]])(
    "agentry %s: cancels the start, ends the server's process and exits 130 without calling the model",
    async (...command) => {
      ws = await makeWorkspace();
      await ws.trust();
      const pidFile = join(ws.dir, "hang.pid");
      await ws.write(
        "agentry.json",
        JSON.stringify({ mcpServers: { slow: testServer("--hang-on-start", "--pid-file", pidFile) } }),
      );
      server = await startModelServer([{ text: "unused" }]);
      const child = spawnCli(command, {
        cwd: ws.dir,
        env: { ...ws.env, ...providerEnv(server, "anthropic") },
      });
      const done = finished(child);
      const pid = await pidFrom(pidFile);
      child.kill("SIGINT");
      const result = await done;

      expect(result.code, result.stderr).toBe(130);
      // Cancelled, not left to fail at its 30 s start timeout.
      expect(result.stderr).not.toContain("did not answer within");
      expect(await until(() => !isRunning(pid), 3_000), `MCP server pid ${pid} outlived agentry`).toBe(true);
      expect(server.requests).toHaveLength(0);
    },
  );
});

describe("agentry mcp list", () => {
  it("lists each server with its tools, and a failed one with why (exit 1)", async () => {
    ws = await makeWorkspace({
      "agentry.json": JSON.stringify({
        mcpServers: { test: testServer(), broken: testServer("--crash-on-start") },
      }),
    });
    await ws.trust();
    const result = await runCli(["mcp", "list", "--json"], { cwd: ws.dir, env: ws.env });
    expect(result.code).toBe(1);
    const reports = JSON.parse(result.stdout) as Array<{
      name: string;
      status: string;
      tools: string[];
      error?: string;
    }>;
    const test = reports.find((r) => r.name === "test");
    expect(test?.status).toBe("connected");
    expect(test?.tools).toEqual(expect.arrayContaining(["mcp__test__echo", "mcp__test__write_note"]));
    const broken = reports.find((r) => r.name === "broken");
    expect(broken).toMatchObject({ status: "failed", tools: [] });
    expect(broken?.error).toContain("database is locked");

    const text = await runCli(["mcp", "list"], { cwd: ws.dir, env: ws.env });
    expect(text.stdout).toMatch(/^SERVER +TYPE +STATUS +TOOLS/m);
    expect(text.stdout).toMatch(/^test +stdio +connected/m);
  });

  it("says so when no server is configured (exit 0)", async () => {
    ws = await makeWorkspace();
    const result = await runCli(["mcp", "list"], { cwd: ws.dir, env: ws.env });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("No MCP servers are configured");
  });
});
