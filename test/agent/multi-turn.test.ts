import { describe, expect, it } from "vitest";
import { runAgentLoop } from "../../src/agent/loop.ts";
import { scriptedModel } from "../../src/testing/scripted-model.ts";
import { eventLog, sessionWithPrompt, tempWorkspace, testConfig, toolResultsIn } from "./support/harness.ts";

describe("a multi-turn run with tool calls", () => {
  it("executes the calls, feeds the results back and completes with the final text", async () => {
    const workspace = await tempWorkspace();
    const model = scriptedModel([
      { text: "Let me echo.", toolCalls: [{ id: "c1", name: "echo", args: { text: "ab", times: 2 } }] },
      { toolCalls: [{ id: "c2", name: "echo", args: { text: "x" } }], usage: { input: 5, output: 1 } },
      { text: "Done: abab, x", usage: { input: 7, output: 3, cost: 0.5 } },
    ]);
    const session = await sessionWithPrompt(workspace, "echo things");
    const log = eventLog();

    const outcome = await runAgentLoop(testConfig(workspace, model), session, log.emit);

    expect(outcome).toMatchObject({
      status: "completed",
      text: "Done: abab, x",
      turns: 3,
      sessionId: session.id,
    });
    expect(outcome.usage).toEqual({ input: 22, output: 14, cacheRead: 0, cacheWrite: 0, cost: 0.5 });
    expect(toolResultsIn(model.requests[1]?.messages ?? [])).toEqual([
      { type: "tool_result", toolCallId: "c1", toolName: "echo", content: "abab", isError: false },
    ]);
    expect(toolResultsIn(model.requests[2]?.messages ?? []).map((r) => r.content)).toEqual(["abab", "x"]);
    expect(session.messages.map((m) => m.role)).toEqual([
      "user",
      "assistant",
      "tool_result",
      "assistant",
      "tool_result",
      "assistant",
    ]);
  });

  it("sends the system prompt and a JSON Schema per tool from its zod schema", async () => {
    const workspace = await tempWorkspace();
    const model = scriptedModel([{ text: "hi" }]);
    await runAgentLoop(testConfig(workspace, model), await sessionWithPrompt(workspace), () => {});

    const request = model.requests[0];
    expect(request?.system).toBe("You are a test agent.");
    const echo = request?.tools.find((tool) => tool.name === "echo");
    expect(echo?.inputSchema).toMatchObject({
      type: "object",
      properties: { text: { type: "string" }, times: { type: "integer", default: 1 } },
      required: ["text"],
    });
    expect(echo?.inputSchema).not.toHaveProperty("$schema");
  });

  it("emits the documented event sequence, each event carrying the agent path", async () => {
    const workspace = await tempWorkspace();
    const model = scriptedModel([
      { text: "calling", toolCalls: [{ id: "c1", name: "echo", args: { text: "a" } }] },
      { text: "end" },
    ]);
    const log = eventLog();
    await runAgentLoop(
      testConfig(workspace, model, { agentPath: ["main", "child-1"] }),
      await sessionWithPrompt(workspace),
      log.emit,
    );

    const types = log.types().filter((type) => type !== "text_delta");
    expect(types).toEqual([
      "agent_start",
      "turn_start",
      "usage_estimate",
      "assistant_message",
      "tool_start",
      "tool_end",
      "tool_results",
      "turn_end",
      "turn_start",
      "usage_estimate",
      "assistant_message",
      "turn_end",
      "agent_end",
    ]);
    expect(log.events.every((event) => event.agentPath.join("/") === "main/child-1")).toBe(true);
    expect(
      log
        .of("text_delta")
        .map((e) => e.delta)
        .join(""),
    ).toBe("callingend");
    expect(log.of("agent_start")[0]).toMatchObject({ agentType: "main", model: "scripted:model" });
    expect(log.of("tool_end")[0]).toMatchObject({ name: "echo", isError: false, preview: "a" });
  });
});
