import { expect, it } from "vitest";
import { runAgentLoop } from "../../src/agent/loop.ts";
import { readTranscript } from "../../src/agent/session/transcript.ts";
import { scriptedModel } from "../../src/testing/scripted-model.ts";
import { eventLog, sessionWithPrompt, tempWorkspace, testConfig } from "./support/harness.ts";

it("ends with an error outcome carrying the model's message, without persisting a half message", async () => {
  const workspace = await tempWorkspace();
  const model = scriptedModel([
    { text: "first", toolCalls: [{ id: "c", name: "echo", args: { text: "x" } }] },
    { error: { message: "529 overloaded (after 3 retries)", retryable: true } },
  ]);
  const session = await sessionWithPrompt(workspace);
  const log = eventLog();

  const outcome = await runAgentLoop(testConfig(workspace, model), session, log.emit);

  expect(outcome).toMatchObject({
    status: "error",
    error: "529 overloaded (after 3 retries)",
    turns: 2,
    text: "first",
  });
  expect(session.messages.map((m) => m.role)).toEqual(["user", "assistant", "tool_result"]);
  expect(log.types().slice(-2)).toEqual(["turn_end", "agent_end"]);
  const { entries } = await readTranscript(session.transcriptPath ?? "");
  expect(entries.slice(-2)).toMatchObject([
    { type: "error", message: "529 overloaded (after 3 retries)" },
    { type: "outcome", outcome: { status: "error" } },
  ]);
});

it("reports a session with nothing to answer as an error, not a model call", async () => {
  const workspace = await tempWorkspace();
  const model = scriptedModel([{ text: "hi" }]);
  const session = await sessionWithPrompt(workspace);
  await runAgentLoop(testConfig(workspace, model), session, () => {});

  const again = await runAgentLoop(testConfig(workspace, model), session, () => {});
  expect(again).toMatchObject({ status: "error", error: expect.stringContaining("append a user message") });
  expect(model.requests).toHaveLength(1);
});
