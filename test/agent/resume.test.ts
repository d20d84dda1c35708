import { expect, it } from "vitest";
import { runAgentLoop } from "../../src/agent/loop.ts";
import { Session, SessionNotFoundError } from "../../src/agent/session/session.ts";
import { readTranscript } from "../../src/agent/session/transcript.ts";
import { userText } from "../../src/model/messages.ts";
import { scriptedModel } from "../../src/testing/scripted-model.ts";
import { sessionWithPrompt, tempWorkspace, testConfig, toolResultsIn } from "./support/harness.ts";

it("continues a stored conversation from its messages", async () => {
  const workspace = await tempWorkspace();
  const first = await sessionWithPrompt(workspace, "my name is Ada");
  await runAgentLoop(testConfig(workspace, scriptedModel([{ text: "Hello Ada" }])), first, () => {});

  const resumed = await Session.resume(workspace, first.id);
  expect(resumed).toMatchObject({ id: first.id, agentName: "main", model: "scripted:model" });
  await resumed.append(userText("what is my name?"));
  const model = scriptedModel([{ text: "Ada" }]);
  const outcome = await runAgentLoop(testConfig(workspace, model), resumed, () => {});

  expect(outcome).toMatchObject({ status: "completed", text: "Ada", turns: 1, sessionId: first.id });
  expect(model.requests[0]?.messages.map((m) => m.role)).toEqual(["user", "assistant", "user"]);
  const { entries } = await readTranscript(resumed.transcriptPath ?? "");
  expect(entries.filter((e) => e.type === "outcome")).toHaveLength(2);
});

it("closes tool calls left without results by a killed process before the next model call", async () => {
  const workspace = await tempWorkspace();
  const session = await sessionWithPrompt(workspace, "do it");
  await session.append({
    role: "assistant",
    content: [
      { type: "tool_call", id: "k1", name: "sleep", args: { ms: 1 }, rawArgs: '{"ms":1}' },
      { type: "tool_call", id: "k2", name: "echo", args: { text: "a" }, rawArgs: '{"text":"a"}' },
    ],
    stopReason: "tool_calls",
    usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0 },
    model: "scripted:model",
  });

  const resumed = await Session.resume(workspace, session.id);
  const model = scriptedModel([{ text: "I will retry" }]);
  const outcome = await runAgentLoop(testConfig(workspace, model), resumed, () => {});

  expect(outcome.status).toBe("completed");
  const results = toolResultsIn(model.requests[0]?.messages ?? []);
  expect(results.map((r) => [r.toolCallId, r.isError, r.content])).toEqual([
    ["k1", true, "interrupted: the process stopped before this tool finished."],
    ["k2", true, "interrupted: the process stopped before this tool finished."],
  ]);
  const stored = await Session.resume(workspace, session.id);
  expect(stored.messages.map((m) => m.role)).toEqual(["user", "assistant", "tool_result", "assistant"]);
});

it("names the way to find session ids when one does not exist", async () => {
  const workspace = await tempWorkspace();
  await expect(Session.resume(workspace, "20990101-000000-nope00")).rejects.toThrow(SessionNotFoundError);
  await expect(Session.resume(workspace, "20990101-000000-nope00")).rejects.toThrow(/agentry sessions list/);
});
