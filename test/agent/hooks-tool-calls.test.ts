import { describe, expect, it } from "vitest";
import type { Hooks } from "../../src/agent/hooks.ts";
import { runAgentLoop } from "../../src/agent/loop.ts";
import { PermissionDeniedError, type PermissionRequest } from "../../src/permissions/types.ts";
import { scriptedModel } from "../../src/testing/scripted-model.ts";
import { sessionWithPrompt, tempWorkspace, testConfig, toolResultsIn } from "./support/harness.ts";

async function runEcho(hooks: Hooks[], ask?: (request: PermissionRequest) => Promise<void>) {
  const workspace = await tempWorkspace();
  const model = scriptedModel([
    {
      toolCalls: [
        { id: "a", name: "echo", args: { text: "alpha" } },
        { id: "b", name: "echo", args: { text: "beta" } },
      ],
    },
    { text: "ok" },
  ]);
  const config = testConfig(workspace, model, { hooks });
  if (ask) config.ask = ask;
  const outcome = await runAgentLoop(config, await sessionWithPrompt(workspace), () => {});
  expect(outcome.status).toBe("completed");
  return toolResultsIn(model.requests[1]?.messages ?? []).map((r) => ({
    content: r.content,
    isError: r.isError,
  }));
}

describe("tool-call hooks", () => {
  it("beforeToolCall deny refuses the call with the reason; the first deny wins", async () => {
    const results = await runEcho([
      {
        beforeToolCall: ({ call }) =>
          call.id === "b" ? { action: "deny", reason: "no betas here" } : undefined,
      },
      { beforeToolCall: () => ({ action: "deny", reason: "second hook" }) },
    ]);
    expect(results).toEqual([
      { content: "Tool call denied: second hook", isError: true },
      { content: "Tool call denied: no betas here", isError: true },
    ]);
  });

  it("beforeToolCall ask goes through the permission gate", async () => {
    const asked: PermissionRequest[] = [];
    const results = await runEcho([{ beforeToolCall: () => ({ action: "ask" }) }], async (request) => {
      asked.push(request);
      if (request.patterns[0]?.includes("beta"))
        throw new PermissionDeniedError("The user rejected echo beta.");
    });
    expect(asked.map((r) => r.permission)).toEqual(["echo", "echo"]);
    expect(asked[0]?.patterns).toEqual(['{"text":"alpha"}']);
    expect(results).toEqual([
      { content: "alpha", isError: false },
      { content: "The user rejected echo beta.", isError: true },
    ]);
  });

  it("afterToolCall may rewrite the result, hooks chained in order", async () => {
    const results = await runEcho([
      { afterToolCall: ({ result }) => ({ ...result, content: result.content.toUpperCase() }) },
      {
        afterToolCall: ({ result, call }) =>
          call.id === "a" ? { ...result, content: `[${result.content}]` } : undefined,
      },
    ]);
    expect(results).toEqual([
      { content: "[ALPHA]", isError: false },
      { content: "BETA", isError: false },
    ]);
  });
});
