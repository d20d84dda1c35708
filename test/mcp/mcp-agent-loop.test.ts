import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runAgentLoop } from "../../src/agent/loop.ts";
import { type McpServerSet, openMcpServers } from "../../src/mcp/mcp-servers.ts";
import { createPermissionGate } from "../../src/permissions/gate.ts";
import { scriptedModel } from "../../src/testing/scripted-model.ts";
import { sessionWithPrompt, tempWorkspace, testConfig, toolResultsIn } from "../agent/support/harness.ts";
import { testServerConfig } from "../support/mcp-server-process.ts";

let workspace: string;
let set: McpServerSet;
beforeAll(async () => {
  workspace = await tempWorkspace();
  set = await openMcpServers({ test: testServerConfig() }, { cwd: workspace, env: process.env });
});
afterAll(() => set?.close());

describe("an agent loop with MCP tools", () => {
  it("sends the server's schemas to the model and returns a call's result to it", async () => {
    const model = scriptedModel([
      { toolCalls: [{ id: "c1", name: "mcp__test__echo", args: { text: "through the loop" } }] },
      { text: "done" },
    ]);
    const outcome = await runAgentLoop(
      { ...testConfig(workspace, model), tools: set.tools },
      await sessionWithPrompt(workspace, "echo something"),
      () => {},
    );
    expect(outcome).toMatchObject({ status: "completed", text: "done" });
    const spec = model.requests[0]?.tools.find((tool) => tool.name === "mcp__test__echo");
    expect(spec).toEqual({
      name: "mcp__test__echo",
      description: "Returns the text it was given.",
      inputSchema: set.tools.find((tool) => tool.name === "mcp__test__echo")?.inputSchema,
    });
    expect(toolResultsIn(model.requests[1]?.messages ?? [])).toEqual([
      {
        type: "tool_result",
        toolCallId: "c1",
        toolName: "mcp__test__echo",
        content: "echo: through the loop",
        isError: false,
      },
    ]);
  });

  it("answers bad arguments with the loop's validation error, without calling the server", async () => {
    const model = scriptedModel([
      { toolCalls: [{ id: "bad", name: "mcp__test__add", args: { a: "one", b: 2 } }] },
      { text: "ok" },
    ]);
    await runAgentLoop(
      { ...testConfig(workspace, model), tools: set.tools },
      await sessionWithPrompt(workspace),
      () => {},
    );
    const [result] = toolResultsIn(model.requests[1]?.messages ?? []);
    expect(result?.isError).toBe(true);
    expect(result?.content).toMatch(/^Invalid arguments for "mcp__test__add":\n- a: .*expected number/);
  });

  it("refuses a tool that the permission rules deny, and allows the others", async () => {
    const gate = createPermissionGate({
      rules: [
        { permission: "mcp__test__*", pattern: "*", action: "allow" },
        { permission: "mcp__test__write_note", pattern: "*", action: "deny" },
      ],
      mode: "default",
    });
    const model = scriptedModel([
      {
        toolCalls: [
          { id: "w", name: "mcp__test__write_note", args: { path: "denied.txt", text: "x" } },
          { id: "e", name: "mcp__test__echo", args: { text: "allowed" } },
        ],
      },
      { text: "ok" },
    ]);
    await runAgentLoop(
      { ...testConfig(workspace, model), tools: set.tools, ask: gate },
      await sessionWithPrompt(workspace),
      () => {},
    );
    const [write, echo] = toolResultsIn(model.requests[1]?.messages ?? []);
    expect(write).toMatchObject({ toolCallId: "w", isError: true });
    expect(write?.content).toContain("is denied by rule");
    expect(write?.content).toContain("mcp__test__write_note");
    expect(existsSync(join(workspace, "denied.txt"))).toBe(false);
    expect(echo).toMatchObject({ toolCallId: "e", isError: false, content: "echo: allowed" });
  });
});
