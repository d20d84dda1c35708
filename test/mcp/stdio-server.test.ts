import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type McpServerSet, openMcpServers } from "../../src/mcp/mcp-servers.ts";
import { PermissionDeniedError } from "../../src/permissions/types.ts";
import type { AnyTool } from "../../src/tools/tool.ts";
import { ToolError } from "../../src/tools/tool.ts";
import { TEST_SERVER_INSTRUCTIONS } from "../support/mcp-server.ts";
import { testServerConfig } from "../support/mcp-server-process.ts";
import { waitFor } from "../support/processes.ts";
import { makeContext, makeSandbox, runTool, type Sandbox } from "../tools/tool-context.ts";

let sandbox: Sandbox;
let set: McpServerSet;

function tool(name: string): AnyTool {
  const found = set.tools.find((candidate) => candidate.name === name);
  if (!found) throw new Error(`no tool ${name} in ${set.tools.map((t) => t.name).join(", ")}`);
  return found;
}

beforeAll(async () => {
  sandbox = await makeSandbox();
  set = await openMcpServers(
    { test: { ...testServerConfig(), env: { GREETING: "hello from config" } } },
    { cwd: sandbox.workspace, env: { ...process.env, PARENT_SECRET: "s3cret" } },
  );
});

afterAll(async () => {
  await set?.close();
});

describe("a stdio MCP server", () => {
  it("lists its tools as mcp__<server>__<tool>, with the server's schemas and read-only hints", () => {
    expect(set.failures).toEqual([]);
    expect(set.tools.map((t) => t.name)).toEqual([
      "mcp__test__echo",
      "mcp__test__add",
      "mcp__test__fail",
      "mcp__test__slow",
      "mcp__test__write_note",
      "mcp__test__read_note",
      "mcp__test__get_env",
      "mcp__test__shout_loud",
    ]);
    expect(set.servers).toEqual([
      {
        name: "test",
        tools: set.tools.map((t) => t.name),
        prompts: [],
        resources: false,
        instructions: TEST_SERVER_INSTRUCTIONS,
      },
    ]);
    const echo = tool("mcp__test__echo");
    expect(echo.description).toBe("Returns the text it was given.");
    expect(echo.inputSchema).toEqual({
      type: "object",
      properties: { text: { type: "string", description: "What to echo back." } },
      required: ["text"],
    });
    expect(tool("mcp__test__add").description).toBe("Add two numbers");
    expect(set.tools.filter((t) => t.readOnly)).toEqual([]);
  });

  it("validates the model's arguments with the server's schema", () => {
    const echo = tool("mcp__test__echo");
    expect(echo.schema.safeParse({ text: "hi" }).success).toBe(true);
    expect(echo.schema.safeParse({ text: 3 }).success).toBe(false);
    expect(echo.schema.safeParse({}).success).toBe(false);
  });

  it("asks for the tool's own permission, then returns the server's text", async () => {
    const { ctx, asks } = makeContext(sandbox.workspace);
    const result = await runTool(tool("mcp__test__echo"), { text: "hi" }, ctx);
    expect(result.content).toBe("echo: hi");
    expect(asks).toEqual([
      { permission: "mcp__test__echo", patterns: ["*"], title: 'mcp__test__echo {"text":"hi"}' },
    ]);
  });

  it("returns a structured result as JSON and keeps it in details", async () => {
    const { ctx } = makeContext(sandbox.workspace);
    const result = await runTool(tool("mcp__test__add"), { a: 2, b: 3 }, ctx);
    expect(result.content).toBe('{"sum":5}');
    expect(result.details).toEqual({ server: "test", tool: "add", structuredContent: { sum: 5 } });
  });

  it("calls a tool with a replaced character by the server's own name", async () => {
    const { ctx } = makeContext(sandbox.workspace);
    expect((await runTool(tool("mcp__test__shout_loud"), { text: "quiet" }, ctx)).content).toBe("QUIET");
  });

  it("shows the server's progress notifications as progress lines", async () => {
    const controller = new AbortController();
    const { ctx, progress } = makeContext(sandbox.workspace, { signal: controller.signal });
    // The server waits until cancelled: its progress is shown while the call runs.
    const call = runTool(tool("mcp__test__slow"), { ms: 10 * 60_000 }, ctx);
    await waitFor(() => progress.length > 0, 10_000, "the progress line");
    controller.abort();
    await expect(call).rejects.toThrow();
    expect(progress).toEqual(["1/2 (50%) halfway"]);
  });

  it("turns isError into a ToolError with the server's text", async () => {
    const { ctx } = makeContext(sandbox.workspace);
    const call = runTool(tool("mcp__test__fail"), {}, ctx);
    await expect(call).rejects.toBeInstanceOf(ToolError);
    await expect(call).rejects.toThrow("the fail tool always fails");
  });

  it("runs in the workspace by default", async () => {
    const { ctx } = makeContext(sandbox.workspace);
    await runTool(tool("mcp__test__write_note"), { path: "note.txt", text: "remember" }, ctx);
    expect(await readFile(join(sandbox.workspace, "note.txt"), "utf8")).toBe("remember");
    expect((await runTool(tool("mcp__test__read_note"), { path: "note.txt" }, ctx)).content).toBe("remember");
  });

  it("gets a minimal inherited environment plus its config's env", async () => {
    const { ctx } = makeContext(sandbox.workspace);
    const env = async (name: string) => (await runTool(tool("mcp__test__get_env"), { name }, ctx)).content;
    expect(await env("GREETING")).toBe("hello from config");
    expect(await env("PATH")).toBe(process.env.PATH);
    expect(await env("PARENT_SECRET")).toBe("(unset)");
  });

  it("does not call the server when the permission is denied", async () => {
    const { ctx } = makeContext(sandbox.workspace, {
      ask: async () => {
        throw new PermissionDeniedError("denied by the test");
      },
    });
    const call = runTool(tool("mcp__test__write_note"), { path: "denied.txt", text: "x" }, ctx);
    await expect(call).rejects.toThrow("denied by the test");
    expect(existsSync(join(sandbox.workspace, "denied.txt"))).toBe(false);
  });

  it("ends a call quickly when the run is aborted, and stays usable", async () => {
    const controller = new AbortController();
    const { ctx } = makeContext(sandbox.workspace, { signal: controller.signal });
    setTimeout(() => controller.abort(), 100);
    // Longer than any test bound: a call the abort did not end would hang.
    await expect(runTool(tool("mcp__test__slow"), { ms: 10 * 60_000 }, ctx)).rejects.toThrow();
    const fresh = makeContext(sandbox.workspace).ctx;
    expect((await runTool(tool("mcp__test__echo"), { text: "still here" }, fresh)).content).toBe(
      "echo: still here",
    );
  });
});

describe("a tool call that takes too long", () => {
  it("is cancelled after toolTimeoutMs with a ToolError saying so", async () => {
    const slowSet = await openMcpServers(
      { test: testServerConfig() },
      { cwd: sandbox.workspace, env: process.env, toolTimeoutMs: 300 },
    );
    try {
      const slow = slowSet.tools.find((t) => t.name === "mcp__test__slow") as AnyTool;
      const { ctx } = makeContext(sandbox.workspace);
      const call = runTool(slow, { ms: 10_000 }, ctx);
      await expect(call).rejects.toBeInstanceOf(ToolError);
      await expect(call).rejects.toThrow(
        "mcp__test__slow did not finish within 300ms, so the call was cancelled.",
      );
    } finally {
      await slowSet.close();
    }
  });
});

describe("tools whose agentry names would collide", () => {
  it("get distinct names, and each calls its own tool", async () => {
    const long = `lookup_${"x".repeat(70)}`;
    const collide = await openMcpServers(
      { test: testServerConfig("--extra-tool", "shout_loud", "--extra-tool", long) },
      { cwd: sandbox.workspace, env: process.env },
    );
    try {
      const names = collide.servers[0]?.tools ?? [];
      expect(names).toContain("mcp__test__shout_loud");
      const hashed = names.filter((name) => /^mcp__test__shout_loud_[0-9a-f]{8}$/.test(name));
      expect(hashed).toHaveLength(1);
      const longName = names.find((name) => name.startsWith("mcp__test__lookup_x")) as string;
      expect(longName).toHaveLength(64);
      const { ctx } = makeContext(sandbox.workspace);
      const call = (name: string, args: unknown) =>
        runTool(collide.tools.find((t) => t.name === name) as AnyTool, args, ctx).then((r) => r.content);
      expect(await call("mcp__test__shout_loud", { text: "a" })).toBe("A");
      expect(await call(hashed[0] as string, {})).toBe("shout_loud");
      expect(await call(longName, {})).toBe(long);
    } finally {
      await collide.close();
    }
  });
});
