import { expect, it } from "vitest";
import type { Hooks } from "../../src/agent/hooks.ts";
import { runAgentLoop } from "../../src/agent/loop.ts";
import { readTranscript } from "../../src/agent/session/transcript.ts";
import { userText } from "../../src/model/messages.ts";
import { scriptedModel } from "../../src/testing/scripted-model.ts";
import { eventLog, sessionWithPrompt, tempWorkspace, testConfig } from "./support/harness.ts";

it("adds the hooks' system sections for that call and appends + persists injected messages before it", async () => {
  const workspace = await tempWorkspace();
  const model = scriptedModel([
    { toolCalls: [{ id: "c", name: "echo", args: { text: "x" } }] },
    { text: "done" },
  ]);
  const turnsSeen: number[] = [];
  const clock: Hooks = {
    beforeModelCall: ({ turn }) => {
      turnsSeen.push(turn);
      return { systemSections: [`<turn>${turn}</turn>`] };
    },
  };
  const notifier: Hooks = {
    beforeModelCall: ({ turn, messages }) =>
      turn === 2
        ? { systemSections: ["second section"], inject: [userText(`notice after ${messages.length}`)] }
        : undefined,
  };
  const session = await sessionWithPrompt(workspace);
  const log = eventLog();

  await runAgentLoop(testConfig(workspace, model, { hooks: [clock, notifier] }), session, log.emit);

  expect(turnsSeen).toEqual([1, 2]);
  expect(model.requests[0]?.system).toBe("You are a test agent.\n\n<turn>1</turn>");
  expect(model.requests[1]?.system).toBe("You are a test agent.\n\n<turn>2</turn>\n\nsecond section");
  expect(model.requests[1]?.messages.at(-1)).toEqual(userText("notice after 3"));
  expect(log.of("user_message").map((e) => e.message)).toEqual([userText("notice after 3")]);
  const { entries } = await readTranscript(session.transcriptPath ?? "");
  const roles = entries.flatMap((e) => (e.type === "message" ? [e.message.role] : []));
  expect(roles).toEqual(["user", "assistant", "tool_result", "user", "assistant"]);
});

it("ends the run with an error outcome when a hook throws", async () => {
  const workspace = await tempWorkspace();
  const model = scriptedModel([{ text: "never" }]);
  const broken: Hooks = {
    beforeModelCall: () => {
      throw new Error("policy service unreachable");
    },
  };
  const outcome = await runAgentLoop(
    testConfig(workspace, model, { hooks: [broken] }),
    await sessionWithPrompt(workspace),
    () => {},
  );
  expect(outcome).toMatchObject({ status: "error", error: "internal error: policy service unreachable" });
  expect(model.requests).toHaveLength(0);
});

it("leaves the tools a hook hides out of that call's request, and still runs one the model calls", async () => {
  const workspace = await tempWorkspace();
  const model = scriptedModel([
    { toolCalls: [{ id: "c", name: "echo", args: { text: "hidden but here" } }] },
    { text: "done" },
  ]);
  const hider: Hooks = {
    beforeModelCall: ({ turn }) => (turn === 1 ? { hiddenTools: ["echo"] } : undefined),
  };
  const session = await sessionWithPrompt(workspace);
  const config = testConfig(workspace, model, { hooks: [hider] });

  const outcome = await runAgentLoop(config, session, () => {});
  expect(outcome.status).toBe("completed");
  const offered = model.requests.map((request) => request.tools.map((tool) => tool.name));
  const all = config.tools.map((tool) => tool.name);
  expect(all).toContain("echo");
  expect(offered[0]).toEqual(all.filter((name) => name !== "echo"));
  expect(offered[1]).toEqual(all);
  const result = session.messages.find((message) => message.role === "tool_result");
  expect(JSON.stringify(result)).toContain("hidden but here");
});
