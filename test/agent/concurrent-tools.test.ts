import { expect, it } from "vitest";
import { runAgentLoop } from "../../src/agent/loop.ts";
import { scriptedModel } from "../../src/testing/scripted-model.ts";
import { eventLog, sessionWithPrompt, tempWorkspace, testConfig, toolResultsIn } from "./support/harness.ts";

it("runs all tool calls of one assistant message concurrently, results in call order", async () => {
  const workspace = await tempWorkspace();
  const model = scriptedModel([
    {
      toolCalls: [
        { id: "slow", name: "sleep", args: { ms: 300 } },
        { id: "slower", name: "sleep", args: { ms: 300 } },
        { id: "quick", name: "echo", args: { text: "q" } },
      ],
    },
    { text: "both done" },
  ]);
  const log = eventLog();

  const outcome = await runAgentLoop(
    testConfig(workspace, model),
    await sessionWithPrompt(workspace),
    log.emit,
  );

  expect(outcome.status).toBe("completed");
  expect(toolResultsIn(model.requests[1]?.messages ?? []).map((r) => [r.toolCallId, r.content])).toEqual([
    ["slow", "slept 300 ms"],
    ["slower", "slept 300 ms"],
    ["quick", "q"],
  ]);
  // All three started before any finished.
  const order = log.events.flatMap((e) => (e.type === "tool_start" || e.type === "tool_end" ? [e.type] : []));
  expect(order.slice(0, 3)).toEqual(["tool_start", "tool_start", "tool_start"]);
});
