import { expect, it } from "vitest";
import type { Hooks } from "../../src/agent/hooks.ts";
import { runAgentLoop } from "../../src/agent/loop.ts";
import { userText } from "../../src/model/messages.ts";
import { scriptedModel } from "../../src/testing/scripted-model.ts";
import { sessionWithPrompt, tempWorkspace, testConfig } from "./support/harness.ts";

it("continues a run whose model stopped calling tools when onTurnEnd injects messages", async () => {
  const workspace = await tempWorkspace();
  const model = scriptedModel([{ text: "waiting for the child" }, { text: "the child found 3 bugs" }]);
  const calls: Array<{ turn: number; toolCallsMade: boolean; finalText: string }> = [];
  let pending = true;
  const notifications: Hooks = {
    onTurnEnd: ({ turn, toolCallsMade, finalText }) => {
      calls.push({ turn, toolCallsMade, finalText });
      if (!pending) return undefined;
      pending = false;
      return { inject: [userText("<task-notification>child done: 3 bugs</task-notification>")] };
    },
  };
  const session = await sessionWithPrompt(workspace);

  const outcome = await runAgentLoop(
    testConfig(workspace, model, { hooks: [notifications] }),
    session,
    () => {},
  );

  expect(outcome).toMatchObject({ status: "completed", turns: 2, text: "the child found 3 bugs" });
  expect(calls).toEqual([
    { turn: 1, toolCallsMade: false, finalText: "waiting for the child" },
    { turn: 2, toolCallsMade: false, finalText: "the child found 3 bugs" },
  ]);
  expect(model.requests[1]?.messages.at(-1)).toEqual(
    userText("<task-notification>child done: 3 bugs</task-notification>"),
  );
});

it("stops with max_turns when the injection comes on the last allowed turn", async () => {
  const workspace = await tempWorkspace();
  const model = scriptedModel([{ text: "final" }]);
  const always: Hooks = { onTurnEnd: () => ({ inject: [userText("more")] }) };
  const outcome = await runAgentLoop(
    testConfig(workspace, model, { hooks: [always], maxTurns: 1 }),
    await sessionWithPrompt(workspace),
    () => {},
  );
  expect(outcome).toMatchObject({ status: "max_turns", text: "final", turns: 1 });
});
