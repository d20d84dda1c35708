import { afterEach, expect, it } from "vitest";
import { runAgentLoop } from "../../src/agent/loop.ts";
import { Session } from "../../src/agent/session/session.ts";
import { mcpToolChanges } from "../../src/cli/wire/wire-mcp.ts";
import { type McpServerSet, openMcpServers } from "../../src/mcp/mcp-servers.ts";
import { userText } from "../../src/model/messages.ts";
import { visibleTools } from "../../src/permissions/derive.ts";
import { scriptedModel } from "../../src/testing/scripted-model.ts";
import type { AnyTool } from "../../src/tools/tool.ts";
import { testConfig } from "../agent/support/harness.ts";
import { testServerConfig } from "../support/mcp-server-process.ts";
import { makeContext, makeSandbox, runTool } from "../tools/tool-context.ts";

let set: McpServerSet | undefined;
afterEach(async () => {
  await set?.close();
  set = undefined;
});

const changed = (mcp: McpServerSet) => new Promise<void>((resolve) => mcp.onToolsChanged(resolve));
const tool = (tools: readonly AnyTool[], name: string) => tools.find((t) => t.name === name) as AnyTool;

it("a server's list_changed adds and drops its tools; the ones that stay keep their objects", async () => {
  const box = await makeSandbox();
  set = await openMcpServers(
    { test: testServerConfig("--mutable-tools") },
    { cwd: box.workspace, env: process.env },
  );
  const echo = tool(set.currentTools(), "mcp__test__echo");
  const { ctx } = makeContext(box.workspace);
  let next = changed(set);
  await runTool(tool(set.tools, "mcp__test__add_tool"), { name: "late" }, ctx);
  await next;
  const late = tool(set.currentTools(), "mcp__test__late");
  expect((await runTool(late, {}, ctx)).content).toBe("I am late");
  expect(tool(set.currentTools(), "mcp__test__echo")).toBe(echo);
  next = changed(set);
  await runTool(tool(set.tools, "mcp__test__remove_tool"), { name: "late" }, ctx);
  await next;
  expect(set.currentTools().map((t) => t.name)).not.toContain("mcp__test__late");
});

it("in a run, a tool a server adds is offered from the next model call on and can be called; one the rules deny is not", async () => {
  const box = await makeSandbox();
  const mcp = await openMcpServers(
    { test: testServerConfig("--mutable-tools") },
    { cwd: box.workspace, env: process.env },
  );
  set = mcp;
  const rules = [{ permission: "mcp__test__secret", pattern: "*", action: "deny" as const }];
  const visible = (tools: readonly AnyTool[]) => visibleTools(tools, rules);
  let added: Promise<void> | undefined;
  const model = scriptedModel([
    {
      toolCalls: [
        { name: "mcp__test__add_tool", args: { name: "late" } },
        { name: "mcp__test__add_tool", args: { name: "secret" } },
      ],
    },
    async () => {
      // The list arrives after the call's result: wait for it, then let the next turn see it.
      await added;
      return { toolCalls: [{ name: "mcp__test__echo", args: { text: "waiting" } }] };
    },
    { toolCalls: [{ name: "mcp__test__late", args: {} }] },
    { text: "done" },
  ]);
  added = new Promise<void>((resolve) => {
    const seen = new Set<string>();
    mcp.onToolsChanged(() => {
      for (const t of mcp.currentTools()) seen.add(t.name);
      if (seen.has("mcp__test__late") && seen.has("mcp__test__secret")) resolve();
    });
  });
  const tools = visible(mcp.tools);
  const config = testConfig(box.workspace, model, { tools, hooks: [mcpToolChanges(mcp, tools, visible)] });
  const session = await Session.create({
    workspace: box.workspace,
    agentName: "main",
    model: model.id,
    persist: false,
  });
  await session.append(userText("add a tool and use it"));
  const outcome = await runAgentLoop(config, session, () => {});
  expect(outcome.status).toBe("completed");
  const offered = (call: number) => model.requests[call]?.tools.map((spec) => spec.name) ?? [];
  expect(offered(0)).not.toContain("mcp__test__late");
  expect(offered(2)).toContain("mcp__test__late");
  expect(offered(2)).not.toContain("mcp__test__secret");
  const results = session.messages.filter((message) => message.role === "tool_result").at(-1);
  expect(results?.content[0]).toMatchObject({
    toolName: "mcp__test__late",
    content: "I am late",
    isError: false,
  });
});
