import { describe, expect, it } from "vitest";
import { z } from "zod";
import { runAgentLoop } from "../../src/agent/loop.ts";
import { createPermissionGate } from "../../src/permissions/gate.ts";
import { scriptedModel } from "../../src/testing/scripted-model.ts";
import { defineTool } from "../../src/tools/tool.ts";
import { sessionWithPrompt, tempWorkspace, testConfig } from "./support/harness.ts";

const guarded = defineTool({
  name: "guarded",
  description: "asks before it acts",
  schema: z.object({}),
  execute: async (_args, ctx) => {
    await ctx.ask({ permission: "guarded", patterns: ["x"] });
    return "done";
  },
});

describe("a pending permission question", () => {
  it("is withdrawn (its signal aborts) when the run is aborted", async () => {
    const workspace = await tempWorkspace();
    const session = await sessionWithPrompt(workspace, "go");
    let questionSignal: AbortSignal | undefined;
    const gate = createPermissionGate({
      rules: [],
      mode: "default",
      onAsk: (_request, signal) => {
        questionSignal = signal;
        return new Promise(() => {}); // nobody answers
      },
    });
    const model = scriptedModel([{ toolCalls: [{ name: "guarded", args: {} }] }]);
    const controller = new AbortController();
    const run = runAgentLoop(
      { ...testConfig(workspace, model), tools: [guarded], ask: gate },
      session,
      () => {},
      controller.signal,
    );
    while (questionSignal === undefined) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(questionSignal.aborted).toBe(false);
    controller.abort("user pressed Ctrl-C");
    expect((await run).status).toBe("aborted");
    expect(questionSignal.aborted).toBe(true);
  });
});
