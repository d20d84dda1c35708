import { expect, it } from "vitest";
import { runAgentLoop } from "../../src/agent/loop.ts";
import { scriptedModel } from "../../src/testing/scripted-model.ts";
import { eventLog, sessionWithPrompt, tempWorkspace, testConfig } from "./support/harness.ts";

it("a final reply with no text and no tool call is an error outcome that says so, and is kept", async () => {
  const workspace = await tempWorkspace();
  const model = scriptedModel([{ text: "" }]);
  const session = await sessionWithPrompt(workspace);
  const outcome = await runAgentLoop(testConfig(workspace, model), session, eventLog().emit);
  expect(outcome).toMatchObject({
    status: "error",
    text: "",
    turns: 1,
    error: expect.stringMatching(/^The model's reply was empty \(no text, no tool call\)/),
  });
  // The empty message stays in the transcript, so a resume continues after it.
  expect(session.messages.map((m) => m.role)).toEqual(["user", "assistant"]);
});

it("counts reasoning without text as empty, also after tool calls", async () => {
  const workspace = await tempWorkspace();
  const model = scriptedModel([
    { toolCalls: [{ name: "echo", args: { text: "x" } }] },
    { reasoning: "I am done, I think." },
  ]);
  const session = await sessionWithPrompt(workspace);
  const outcome = await runAgentLoop(testConfig(workspace, model), session, () => {});
  expect(outcome).toMatchObject({
    status: "error",
    turns: 2,
    error: expect.stringContaining("reply was empty"),
  });
});

it("whitespace is text enough to end a run, as any answer is", async () => {
  const workspace = await tempWorkspace();
  const session = await sessionWithPrompt(workspace);
  const outcome = await runAgentLoop(
    testConfig(workspace, scriptedModel([{ text: "Done." }])),
    session,
    () => {},
  );
  expect(outcome).toMatchObject({ status: "completed", text: "Done." });
});
