import { describe, expect, it } from "vitest";
import { z } from "zod";
import { runAgentLoop } from "../../src/agent/loop.ts";
import type { AgentEvent } from "../../src/contracts/events.ts";
import { PermissionDeniedError, type PermissionRequest } from "../../src/permissions/types.ts";
import { scriptedModel } from "../../src/testing/scripted-model.ts";
import { type AgentIdentity, defineTool, type ToolContext } from "../../src/tools/tool.ts";
import { eventLog, sessionWithPrompt, tempWorkspace, testConfig, toolResultsIn } from "./support/harness.ts";

let seen: ToolContext | undefined;
const probe = defineTool({
  name: "probe",
  description: "Asks, reports progress and bubbles an event.",
  schema: z.object({}),
  async execute(_args, ctx) {
    seen = ctx;
    ctx.progress("step 1");
    ctx.emit({ type: "turn_start", turn: 1, agentPath: ["main", "child"] });
    await ctx.ask({ permission: "edit", patterns: ["a.txt"] });
    return "asked";
  },
});

async function run(ask?: (request: PermissionRequest, agent: AgentIdentity) => Promise<void>) {
  const workspace = await tempWorkspace();
  const model = scriptedModel([{ toolCalls: [{ id: "p1", name: "probe", args: {} }] }, { text: "ok" }]);
  const log = eventLog();
  const session = await sessionWithPrompt(workspace);
  const config = testConfig(workspace, model, { tools: [probe], agentPath: ["main"], depth: 0 });
  if (ask) config.ask = ask;
  await runAgentLoop(config, session, log.emit);
  return { log, session, workspace, result: toolResultsIn(model.requests[1]?.messages ?? [])[0] };
}

describe("the context a tool gets", () => {
  it("binds ask to the agent identity, forwards progress and bubbled events", async () => {
    const asked: Array<[PermissionRequest, AgentIdentity]> = [];
    const { log, session, workspace, result } = await run(async (request, agent) => {
      asked.push([request, agent]);
    });
    expect(result?.content).toBe("asked");
    expect(asked).toEqual([
      [
        { permission: "edit", patterns: ["a.txt"], call: { id: "p1", name: "probe", args: {} } },
        { path: ["main"], name: "main", sessionId: session.id, depth: 0 },
      ],
    ]);
    expect(log.of("tool_progress")).toEqual([
      { type: "tool_progress", toolCallId: "p1", name: "probe", update: "step 1", agentPath: ["main"] },
    ]);
    const bubbled = log.events.find((e: AgentEvent) => e.agentPath.join("/") === "main/child");
    expect(bubbled).toEqual({ type: "turn_start", turn: 1, agentPath: ["main", "child"] });
    expect(seen?.workspace).toBe(workspace);
    expect(seen?.toolCallId).toBe("p1");
  });

  it("allows when no permission gate is configured", async () => {
    const { result } = await run();
    expect(result).toMatchObject({ content: "asked", isError: false });
  });

  it("turns a denial from the gate into an error result with its message", async () => {
    const { result } = await run(async () => {
      throw new PermissionDeniedError("edit a.txt was rejected by the user.");
    });
    expect(result).toMatchObject({ content: "edit a.txt was rejected by the user.", isError: true });
  });
});
