import { expect, test } from "vitest";
import type { ModelRequest } from "../../src/model/model.ts";
import { type ScriptedReply, scriptedModel } from "../../src/testing/index.ts";
import { CHILD_MARK, rootTree, runTree, tempWorkspace, toolResultsIn } from "./support/subagent-harness.ts";

function delegate(child: ScriptedReply) {
  return scriptedModel((request: ModelRequest): ScriptedReply => {
    if (request.system.includes(CHILD_MARK)) return child;
    return toolResultsIn(request.messages).length === 0
      ? {
          toolCalls: [
            { name: "task", args: { description: "Some work", prompt: "work", subagent_type: "explore" } },
          ],
        }
      : { text: "parent done" };
  });
}

test("a child stops before the call that would pass its token budget, reported to the parent", async () => {
  const workspace = await tempWorkspace();
  const model = delegate({
    text: "thinking",
    toolCalls: [{ name: "list", args: {} }],
    usage: { input: 3_000, output: 100 },
  });
  const { config, runtime } = rootTree({ workspace, model, limits: { maxTokens: 5_000 } });

  const run = await runTree(config, "ROOT");
  expect(run.outcome).toMatchObject({ status: "completed", text: "parent done" });
  // Its second call's prompt, estimated from the first's 3,000, would pass 5,000: it is not made.
  const budget =
    /^it exceeded its budget \(token budget of 5000 exceeded \(used 3100, and about 3\d{3} for the model call in flight, which was stopped\)\)$/;
  expect(await runtime.store.list({})).toEqual([
    expect.objectContaining({
      status: "FAILED",
      reason: "budget",
      error: expect.stringMatching(budget),
      result: "thinking",
      usage: { input: 3_000, output: 100, cacheRead: 0, cacheWrite: 0 },
    }),
  ]);
  const [result] = toolResultsIn(model.requests.at(-1)!.messages);
  expect(result?.isError).toBe(true);
  expect(result?.content).toContain(
    "status budget_exceeded — it exceeded its budget (token budget of 5000 exceeded",
  );
});

test("a child with no activity for stallTimeoutMs fails as stalled", async () => {
  const workspace = await tempWorkspace();
  const model = delegate({ text: "late", delayMs: 10_000 });
  const { config, runtime } = rootTree({ workspace, model, limits: { stallTimeoutMs: 150 } });

  const run = await runTree(config, "ROOT");
  expect(run.outcome.text).toBe("parent done");
  const [result] = toolResultsIn(model.requests.at(-1)!.messages);
  expect(result?.isError).toBe(true);
  expect(result?.content).toMatch(/status error — it failed: stalled: no model or tool activity for/);
  const [record] = await runtime.store.list({});
  expect(record).toMatchObject({ status: "FAILED", reason: "stalled" });
  expect(record?.error).toMatch(/^it failed: stalled: no model or tool activity for [\d.]+(ms|s)$/);
});

test("a background child over its wall-clock budget is FAILED with reason timeout, and the parent is told", async () => {
  const workspace = await tempWorkspace();
  const model = scriptedModel((request: ModelRequest): ScriptedReply => {
    if (request.system.includes(CHILD_MARK))
      return { toolCalls: [{ name: "bash", args: { command: "sleep 30" } }] };
    if (toolResultsIn(request.messages).length === 0)
      return {
        toolCalls: [
          { name: "task", args: { description: "Long job", prompt: "work", run_in_background: true } },
        ],
      };
    return { text: request.messages.at(-1)?.role === "user" ? "told" : "waiting" };
  });
  const { config, runtime } = rootTree({ workspace, model, limits: { maxDurationMs: 300 } });

  // Without the budget the child would run `sleep 30` turn after turn and the run never end.
  const run = await runTree(config, "ROOT");
  expect(run.outcome.text).toBe("told");
  const [record] = await runtime.store.list({});
  expect(record).toMatchObject({
    status: "FAILED",
    reason: "timeout",
    error: "it exceeded its budget (wall-clock budget of 0.3s exceeded)",
    deliveredAt: expect.any(String),
  });
  const last = model.requests.at(-1)!.messages.at(-1);
  const text = last?.role === "user" && last.content[0]?.type === "text" ? last.content[0].text : "";
  expect(text).toContain("<status>failed</status>\n<reason>timeout</reason>");
});
