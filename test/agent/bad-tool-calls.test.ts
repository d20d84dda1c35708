import { describe, expect, it } from "vitest";
import { runAgentLoop } from "../../src/agent/loop.ts";
import type { ToolResultPart } from "../../src/model/messages.ts";
import { scriptedModel } from "../../src/testing/scripted-model.ts";
import { sessionWithPrompt, tempWorkspace, testConfig, toolResultsIn } from "./support/harness.ts";

/** Runs one bad call, then a text reply; returns the result the model saw in its second request. */
async function resultOf(call: { name: string; args?: unknown; rawArgs?: string }): Promise<ToolResultPart> {
  const workspace = await tempWorkspace();
  const model = scriptedModel([{ toolCalls: [{ id: "bad", ...call }] }, { text: "recovered" }]);
  const outcome = await runAgentLoop(
    testConfig(workspace, model),
    await sessionWithPrompt(workspace),
    () => {},
  );
  expect(outcome).toMatchObject({ status: "completed", text: "recovered", turns: 2 });
  const result = toolResultsIn(model.requests[1]?.messages ?? [])[0];
  if (!result) throw new Error("no tool result in the second request");
  expect(result).toMatchObject({ toolCallId: "bad", isError: true });
  return result;
}

describe("bad tool calls become error results and the run continues", () => {
  it("malformed JSON arguments: quotes the parse problem and the raw text", async () => {
    const result = await resultOf({ name: "echo", rawArgs: '{"text": "unterminated' });
    expect(result.content).toContain("not valid JSON");
    expect(result.content).toMatch(/Unterminated string|Unexpected end/);
    expect(result.content).toContain('Raw arguments: {"text": "unterminated');
  });

  it("malformed JSON arguments: shortens very long raw text", async () => {
    const result = await resultOf({ name: "echo", rawArgs: `{"text": "${"z".repeat(5000)}` });
    expect(result.content.length).toBeLessThan(800);
    expect(result.content).toContain("characters cut");
  });

  it("an unknown tool: lists the available tools", async () => {
    const result = await resultOf({ name: "Bash", args: { command: "ls" } });
    expect(result.content).toBe('Unknown tool "Bash". Available tools: echo, sleep.');
  });

  it("schema-invalid arguments: names each bad field", async () => {
    const result = await resultOf({ name: "echo", args: { text: 42, times: "many" } });
    expect(result.content).toContain('Invalid arguments for "echo"');
    expect(result.content).toMatch(/- text: .*expected string/i);
    expect(result.content).toMatch(/- times: .*expected number/i);
  });
});
