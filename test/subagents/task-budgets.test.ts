import { rm } from "node:fs/promises";
import { afterEach, expect, test } from "vitest";
import type { ModelRequest } from "../../src/model/model.ts";
import { type ScriptedReply, scriptedModel } from "../../src/testing/index.ts";
import { CHILD_MARK, rootTree, runTree, tempWorkspace, toolResultsIn } from "./support/subagent-harness.ts";

let workspace: string | undefined;
afterEach(async () => {
  if (workspace) await rm(workspace, { recursive: true, force: true });
  workspace = undefined;
});

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

test("a child over its token budget stops with budget_exceeded, reported to the parent", async () => {
  workspace = await tempWorkspace();
  const model = delegate({
    text: "thinking",
    toolCalls: [{ name: "list", args: {} }],
    usage: { input: 500, output: 100 },
  });
  const { config } = rootTree({ workspace, model, limits: { maxTokens: 300 } });

  const run = await runTree(config, "ROOT");
  expect(run.outcome).toMatchObject({ status: "completed", text: "parent done" });
  const [result] = toolResultsIn(model.requests.at(-1)!.messages);
  expect(result?.isError).toBe(true);
  expect(result?.content).toContain(
    "status budget_exceeded — it exceeded its budget (token budget of 300 exceeded (used 600))",
  );
});

test("a child with no activity for stallTimeoutMs fails as stalled", async () => {
  workspace = await tempWorkspace();
  const model = delegate({ text: "late", delayMs: 10_000 });
  const { config } = rootTree({ workspace, model, limits: { stallTimeoutMs: 150 } });

  const run = await runTree(config, "ROOT");
  expect(run.outcome.text).toBe("parent done");
  const [result] = toolResultsIn(model.requests.at(-1)!.messages);
  expect(result?.isError).toBe(true);
  expect(result?.content).toMatch(/status error — it failed: stalled: no model or tool activity for/);
});
