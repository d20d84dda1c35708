import { afterEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { runAgentLoop } from "../../src/agent/loop.ts";
import { createPermissionGate } from "../../src/permissions/gate.ts";
import { scriptedModel } from "../../src/testing/scripted-model.ts";
import { defineTool } from "../../src/tools/tool.ts";
import { eventLog, sessionWithPrompt, tempWorkspace, testConfig } from "./support/harness.ts";

// The clock is moved by hand (only `Date` is faked): the tool "works" 5 s and the person takes
// 10 minutes to answer, so the duration is decided by those steps, not by how fast the machine is.
const WORK_MS = 5_000;
const ANSWER_MS = 10 * 60_000;
const advance = (ms: number) => vi.setSystemTime(Date.now() + ms);

const guarded = defineTool({
  name: "guarded",
  description: "works, asks, works",
  schema: z.object({}),
  execute: async (_args, ctx) => {
    advance(WORK_MS / 2);
    await ctx.ask({ permission: "guarded", patterns: ["x"] });
    advance(WORK_MS / 2);
    return "done";
  },
});

afterEach(() => {
  vi.useRealTimers();
});

describe("a tool's duration", () => {
  it("leaves out the time its permission question waited for a person", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const workspace = await tempWorkspace();
    const session = await sessionWithPrompt(workspace, "go");
    const gate = createPermissionGate({
      rules: [],
      mode: "default",
      onAsk: async () => {
        advance(ANSWER_MS);
        return "once";
      },
    });
    const model = scriptedModel([{ toolCalls: [{ name: "guarded", args: {} }] }, { text: "ok" }]);
    const log = eventLog();
    const outcome = await runAgentLoop(
      { ...testConfig(workspace, model), tools: [guarded], ask: gate },
      session,
      log.emit,
      new AbortController().signal,
    );
    expect(outcome.status).toBe("completed");
    expect(log.of("tool_end").map((event) => event.durationMs)).toEqual([WORK_MS]);
    // The run's own duration still counts the wait: the person's time is the run's time.
    expect(outcome.durationMs).toBeGreaterThanOrEqual(ANSWER_MS);
  });
});
