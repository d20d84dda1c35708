import { describe, expect, it } from "vitest";
import { runAgentLoop } from "../../src/agent/loop.ts";
import { readTranscript } from "../../src/agent/session/transcript.ts";
import { scriptedModel } from "../../src/testing/scripted-model.ts";
import { sessionWithPrompt, tempWorkspace, testConfig } from "./support/harness.ts";

const call = (id: string) => ({ toolCalls: [{ id, name: "echo", args: { text: id } }] });

describe("the turn limit", () => {
  it("tells the model on the last allowed turn to answer in text, and completes when it does", async () => {
    const workspace = await tempWorkspace();
    const model = scriptedModel([call("a"), call("b"), { text: "summary" }]);
    const outcome = await runAgentLoop(
      testConfig(workspace, model, { maxTurns: 3 }),
      await sessionWithPrompt(workspace),
      () => {},
    );
    expect(outcome).toMatchObject({ status: "completed", text: "summary", turns: 3 });
    expect(model.requests[0]?.system).not.toContain("last turn");
    expect(model.requests[1]?.system).not.toContain("last turn");
    expect(model.requests[2]?.system).toMatch(
      /^You are a test agent\.\n\nThis is the last turn.*Do not call any tools/s,
    );
    // Tools stay declared: providers reject histories with tool calls when no tools are defined.
    expect(model.requests[2]?.tools.length).toBe(2);
  });

  it("stops with max_turns when the model still calls tools, closing those calls", async () => {
    const workspace = await tempWorkspace();
    const model = scriptedModel([
      { text: "working", ...call("a") },
      { text: "more", ...call("b") },
    ]);
    const session = await sessionWithPrompt(workspace);
    const outcome = await runAgentLoop(testConfig(workspace, model, { maxTurns: 2 }), session, () => {});

    expect(outcome).toMatchObject({ status: "max_turns", turns: 2, text: "more" });
    expect(model.requests).toHaveLength(2);
    const last = session.messages.at(-1);
    expect(last).toMatchObject({ role: "tool_result", content: [{ toolCallId: "b", isError: true }] });
    expect(JSON.stringify(last)).toContain("turn limit");
    const transcript = await readTranscript(session.transcriptPath ?? "");
    expect(transcript.entries.at(-1)).toMatchObject({ type: "outcome", outcome: { status: "max_turns" } });
  });

  it("rejects a turn limit below 1 with a clear error outcome", async () => {
    const workspace = await tempWorkspace();
    const model = scriptedModel([{ text: "never" }]);
    const outcome = await runAgentLoop(
      testConfig(workspace, model, { maxTurns: 0 }),
      await sessionWithPrompt(workspace),
      () => {},
    );
    expect(outcome).toMatchObject({ status: "error", error: expect.stringContaining("maxTurns") });
    expect(model.requests).toHaveLength(0);
  });
});
