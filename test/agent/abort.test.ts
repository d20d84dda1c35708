import { describe, expect, it } from "vitest";
import { z } from "zod";
import { runAgentLoop } from "../../src/agent/loop.ts";
import { readTranscript } from "../../src/agent/session/transcript.ts";
import { PushModelStream } from "../../src/model/event-stream.ts";
import type { Model } from "../../src/model/model.ts";
import { scriptedModel } from "../../src/testing/scripted-model.ts";
import { defineTool } from "../../src/tools/tool.ts";
import { eventLog, sessionWithPrompt, tempWorkspace, testConfig } from "./support/harness.ts";

/** Ignores the signal entirely: the loop must not wait for it. */
const stubborn = defineTool({
  name: "stubborn",
  description: "Never finishes.",
  schema: z.object({}),
  execute: () => new Promise<string>(() => {}),
});

/** Longer than any test's bound: a run that waited for the model or a tool this long would hang its test. */
const NEVER_MS = 10 * 60_000;

function abortAfter(controller: AbortController, ms: number, reason?: string): void {
  setTimeout(() => controller.abort(reason), ms);
}

describe("aborting a run", () => {
  it("during the model call: aborted at once, no half message, the transcript records it", async () => {
    const workspace = await tempWorkspace();
    const model = scriptedModel([{ text: "too late", delayMs: NEVER_MS }]);
    const session = await sessionWithPrompt(workspace);
    const controller = new AbortController();
    abortAfter(controller, 50);

    const outcome = await runAgentLoop(testConfig(workspace, model), session, () => {}, controller.signal);

    expect(outcome).toMatchObject({ status: "aborted", reason: "aborted", turns: 1 });
    expect(session.messages.map((m) => m.role)).toEqual(["user"]);
    const { entries } = await readTranscript(session.transcriptPath ?? "");
    expect(entries.map((e) => e.type)).toEqual(["message", "abort", "outcome"]);
    expect(entries[1]).toMatchObject({ message: "aborted (during the model call)" });
  });

  it("during tools: tools get the signal, pending calls get aborted results, finished ones keep theirs", async () => {
    const workspace = await tempWorkspace();
    const model = scriptedModel([
      {
        toolCalls: [
          { id: "quick", name: "echo", args: { text: "done" } },
          { id: "polite", name: "sleep", args: { ms: NEVER_MS } },
          { id: "rude", name: "stubborn", args: {} },
        ],
      },
    ]);
    const session = await sessionWithPrompt(workspace);
    const controller = new AbortController();
    const log = eventLog();
    abortAfter(controller, 100, "user pressed Ctrl-C");

    const outcome = await runAgentLoop(
      testConfig(workspace, model, { tools: [stubborn, ...testConfig(workspace, model).tools] }),
      session,
      log.emit,
      controller.signal,
    );

    expect(outcome).toMatchObject({ status: "aborted", reason: "user pressed Ctrl-C" });
    expect(model.requests).toHaveLength(1);
    const results = session.messages.at(-1);
    expect(results?.role).toBe("tool_result");
    expect(results?.content.map((r) => (r.type === "tool_result" ? [r.toolCallId, r.isError] : []))).toEqual([
      ["quick", false],
      ["polite", true],
      ["rude", true],
    ]);
    expect(JSON.stringify(results)).toContain("aborted: the run was cancelled");
    expect(log.of("tool_end")).toHaveLength(3);
    const { entries } = await readTranscript(session.transcriptPath ?? "");
    expect(entries.slice(-2)).toMatchObject([
      { type: "abort", message: "user pressed Ctrl-C (while tools were running)" },
      { type: "outcome", outcome: { status: "aborted" } },
    ]);
  });

  it("during the model call, even when the provider ignores the signal", async () => {
    const workspace = await tempWorkspace();
    const silent: Model = { id: "silent:model", stream: () => new PushModelStream() };
    const controller = new AbortController();
    abortAfter(controller, 30);
    const outcome = await runAgentLoop(
      testConfig(workspace, silent),
      await sessionWithPrompt(workspace),
      () => {},
      controller.signal,
    );
    expect(outcome.status).toBe("aborted");
  });

  it("before it starts: no model call", async () => {
    const workspace = await tempWorkspace();
    const model = scriptedModel([{ text: "never" }]);
    const outcome = await runAgentLoop(
      testConfig(workspace, model),
      await sessionWithPrompt(workspace),
      () => {},
      AbortSignal.abort(),
    );
    expect(outcome).toMatchObject({ status: "aborted", turns: 0 });
    expect(model.requests).toHaveLength(0);
  });
});
