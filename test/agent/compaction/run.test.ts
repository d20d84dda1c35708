import { describe, expect, it } from "vitest";
import { isCompactionRequest } from "../../../src/agent/compaction/compact-history.ts";
import { compactionHooks } from "../../../src/agent/compaction/compaction-hooks.ts";
import { requestChars } from "../../../src/agent/limits/token-estimate.ts";
import { runAgentLoop } from "../../../src/agent/loop.ts";
import { readTranscript, transcriptMessages } from "../../../src/agent/session/transcript.ts";
import { scriptedModel } from "../../../src/testing/index.ts";
import { eventLog, sessionWithPrompt, tempWorkspace, testConfig } from "../support/harness.ts";
import { expectedSum, factAgent, factTool, reportedUsage } from "./support.ts";

const WINDOW = 6_000;
const window = () => WINDOW;

describe("automatic compaction in a run", () => {
  it("compacts a conversation that outgrows a small window several times and still answers right", async () => {
    const workspace = await tempWorkspace();
    const model = scriptedModel(factAgent(16));
    const session = await sessionWithPrompt(workspace, "Add up facts 1 to 16.");
    const log = eventLog();
    const outcome = await runAgentLoop(
      testConfig(workspace, model, {
        tools: [factTool(4_000)], // about 1,000 tokens a fact: a window holds five
        hooks: [compactionHooks({ contextWindow: window })],
      }),
      session,
      log.emit,
    );

    expect(outcome).toMatchObject({ status: "completed", text: `The sum is ${expectedSum(16)}.` });
    const compacted = log.of("compacted");
    expect(compacted.length).toBeGreaterThanOrEqual(3);
    expect(log.of("compaction_failed")).toEqual([]);
    for (const event of compacted) {
      expect(event).toMatchObject({ trigger: "auto", contextWindow: WINDOW, model: "scripted:model" });
      expect(event.tokensBefore).toBeGreaterThanOrEqual(WINDOW * 0.8);
      expect(event.tokensAfter).toBeLessThan(WINDOW * 0.8);
    }
    // Every call the agent made fit the window; the summary calls saw the turns they replaced.
    const agentCalls = model.requests.filter((r) => !isCompactionRequest(r));
    for (const request of agentCalls) expect(requestChars(request) / 4).toBeLessThan(WINDOW);
    expect(model.requests.length - agentCalls.length).toBe(compacted.length);

    // The summary calls are counted in the run's usage.
    const reportedInput = model.requests.map((r) => reportedUsage(r).input ?? 0);
    expect(outcome.usage.input).toBe(reportedInput.reduce((a, b) => a + b, 0));

    // The transcript keeps the whole history and records each compaction.
    session.close();
    const transcript = await readTranscript(session.transcriptPath as string);
    const facts = transcriptMessages(transcript).filter((m) => m.role === "tool_result");
    expect(facts).toHaveLength(16);
    expect(transcript.entries.filter((e) => e.type === "compaction")).toHaveLength(compacted.length);
  });

  it("leaves the conversation as it was when the summary call fails, says so, and tries again later", async () => {
    const workspace = await tempWorkspace();
    let summaryCalls = 0;
    const model = scriptedModel(
      factAgent(10, () => {
        summaryCalls++;
        return { error: { message: "529 overloaded" } };
      }),
    );
    const session = await sessionWithPrompt(workspace, "Add up facts 1 to 10.");
    const log = eventLog();
    const outcome = await runAgentLoop(
      testConfig(workspace, model, {
        tools: [factTool(4_000)],
        hooks: [compactionHooks({ contextWindow: window })],
      }),
      session,
      log.emit,
    );
    // The window is only the policy's here: the agent goes on with its whole history and answers.
    expect(outcome).toMatchObject({ status: "completed", text: `The sum is ${expectedSum(10)}.` });
    const failures = log.of("compaction_failed");
    expect(failures.length).toBeGreaterThanOrEqual(1);
    expect(failures[0]).toMatchObject({ reason: "model_error", trigger: "auto" });
    expect(failures[0]?.error).toContain("529 overloaded");
    expect(log.of("compacted")).toEqual([]);
    expect(session.messages.filter((m) => m.role === "tool_result")).toHaveLength(10);
    // Not at every call: two more turns pass between attempts.
    expect(summaryCalls).toBe(failures.length);
    expect(summaryCalls).toBeGreaterThanOrEqual(2);
    const attempts = model.requests.flatMap((r, index) => (isCompactionRequest(r) ? [index] : []));
    for (let i = 1; i < attempts.length; i++)
      expect((attempts[i] as number) - (attempts[i - 1] as number)).toBeGreaterThanOrEqual(3);
    session.close();
    const transcript = await readTranscript(session.transcriptPath as string);
    expect(transcript.entries.some((e) => e.type === "compaction")).toBe(false);
  });

  it("says once that a conversation cannot shrink enough instead of compacting at every call", async () => {
    const workspace = await tempWorkspace();
    let summaryCalls = 0;
    const model = scriptedModel(
      factAgent(4, () => {
        summaryCalls++;
        return { text: "unused" };
      }),
    );
    const session = await sessionWithPrompt(workspace, "Add up facts 1 to 4.");
    const log = eventLog();
    const outcome = await runAgentLoop(
      testConfig(workspace, model, {
        // Every fact alone is past the threshold: keeping the latest turn cannot get under it.
        tools: [factTool(24_000)],
        hooks: [compactionHooks({ contextWindow: window })],
      }),
      session,
      log.emit,
    );
    expect(outcome.status).toBe("completed");
    expect(summaryCalls).toBe(0);
    const failures = log.of("compaction_failed");
    expect(failures).toHaveLength(1);
    expect(failures[0]).toMatchObject({ reason: "cannot_shrink" });
    expect(failures[0]?.error).toMatch(/cannot be compacted enough/);
  });

  it("stops with the history intact when the run is aborted during the summary call", async () => {
    const workspace = await tempWorkspace();
    const controller = new AbortController();
    const model = scriptedModel(
      factAgent(10, () => {
        controller.abort(new Error("interrupted"));
        return { text: "late", delayMs: 5_000 };
      }),
    );
    const session = await sessionWithPrompt(workspace, "Add up facts 1 to 10.");
    const log = eventLog();
    const outcome = await runAgentLoop(
      testConfig(workspace, model, {
        tools: [factTool(4_000)],
        hooks: [compactionHooks({ contextWindow: window })],
      }),
      session,
      log.emit,
      controller.signal,
    );
    expect(outcome.status).toBe("aborted");
    expect(log.of("compaction_start")).toHaveLength(1);
    expect(log.of("compacted")).toEqual([]);
    expect(session.messages[0]?.role === "user" && session.messages[0].content[0]).toMatchObject({
      text: "Add up facts 1 to 10.",
    });
  });
});
