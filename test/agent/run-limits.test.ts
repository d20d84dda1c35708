import { describe, expect, it } from "vitest";
import { z } from "zod";
import { runAgentLoop } from "../../src/agent/loop.ts";
import { readTranscript } from "../../src/agent/session/transcript.ts";
import { scriptedModel } from "../../src/testing/scripted-model.ts";
import { defineTool } from "../../src/tools/tool.ts";
import { scaled } from "../support/time-scale.ts";
import { sessionWithPrompt, tempWorkspace, testConfig } from "./support/harness.ts";

const hang = defineTool({
  name: "hang",
  description: "never returns until aborted",
  schema: z.object({}),
  execute: (_args, ctx) =>
    new Promise((_resolve, reject) =>
      ctx.signal.addEventListener("abort", () => reject(new Error("stopped"))),
    ),
});

describe("run limits", () => {
  it("ends with budget_exceeded when the token budget is spent, closing pending calls", async () => {
    const workspace = await tempWorkspace();
    const session = await sessionWithPrompt(workspace, "work");
    const model = scriptedModel([
      { toolCalls: [{ name: "hang", args: {} }], usage: { input: 600, output: 500 } },
      { text: "never reached" },
    ]);
    const config = { ...testConfig(workspace, model), tools: [hang], limits: { maxTokens: 1_000 } };
    const outcome = await runAgentLoop(config, session, () => {});
    expect(outcome.status).toBe("budget_exceeded");
    expect(outcome.status === "budget_exceeded" && outcome.reason).toContain("token budget of 1000 exceeded");
    expect(model.requests).toHaveLength(1);
    const last = session.messages.at(-1);
    expect(last?.role).toBe("tool_result");
  });

  it("ends with budget_exceeded when the wall-clock budget runs out mid-tool", async () => {
    const workspace = await tempWorkspace();
    const session = await sessionWithPrompt(workspace, "work");
    const model = scriptedModel([{ toolCalls: [{ name: "hang", args: {} }] }]);
    const config = { ...testConfig(workspace, model), tools: [hang], limits: { maxDurationMs: 200 } };
    // The tool never ends: without the budget the run would hang.
    const outcome = await runAgentLoop(config, session, () => {});
    expect(outcome.status).toBe("budget_exceeded");
    expect(outcome.status === "budget_exceeded" && outcome.reason).toContain("wall-clock budget of 0.2s");
  });

  it("fails a run with no model or tool activity as stalled, and records why", async () => {
    const workspace = await tempWorkspace();
    const session = await sessionWithPrompt(workspace, "work");
    const model = scriptedModel([{ toolCalls: [{ name: "hang", args: {} }] }]);
    const config = { ...testConfig(workspace, model), tools: [hang], limits: { stallTimeoutMs: 150 } };
    const outcome = await runAgentLoop(config, session, () => {});
    expect(outcome.status).toBe("error");
    expect(outcome.status === "error" && outcome.reason).toBe("stalled");
    expect(outcome.status === "error" && outcome.error).toMatch(/^stalled: no model or tool activity/);
    const transcript = await readTranscript(session.transcriptPath ?? "");
    expect(JSON.stringify(transcript.entries)).toContain("stalled");
  });

  it("does not stall a run that keeps reporting progress", async () => {
    const workspace = await tempWorkspace();
    const session = await sessionWithPrompt(workspace, "work");
    const busy = defineTool({
      name: "busy",
      description: "reports progress for 400 ms",
      schema: z.object({}),
      execute: async (_args, ctx) => {
        for (let i = 0; i < 8; i++) {
          ctx.progress(`step ${i}`);
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        return "done";
      },
    });
    const model = scriptedModel([{ toolCalls: [{ name: "busy", args: {} }] }, { text: "finished" }]);
    // Scaled: on a loaded machine a 50 ms step may take longer, and is still progress.
    const config = {
      ...testConfig(workspace, model),
      tools: [busy],
      limits: { stallTimeoutMs: scaled(200) },
    };
    const outcome = await runAgentLoop(config, session, () => {});
    expect(outcome.status).toBe("completed");
  });
});
