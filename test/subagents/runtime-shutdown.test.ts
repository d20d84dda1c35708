import { expect, test } from "vitest";
import type { ModelRequest } from "../../src/model/model.ts";
import { type ScriptedReply, scriptedModel } from "../../src/testing/index.ts";
import {
  firstUserText,
  rootTree,
  runTree,
  tempWorkspace,
  toolResultsIn,
} from "./support/subagent-harness.ts";

test("a root stopped by its turn limit leaves a child running; shutdown cancels it and records why", async () => {
  const workspace = await tempWorkspace();
  const model = scriptedModel((request: ModelRequest): ScriptedReply => {
    if (firstUserText(request.messages) === "CHILD") return { text: "too late", delayMs: 30_000 };
    return toolResultsIn(request.messages).length === 0
      ? {
          toolCalls: [
            { name: "task", args: { description: "Slow", prompt: "CHILD", run_in_background: true } },
          ],
        }
      : { toolCalls: [{ name: "list", args: {} }] };
  });
  const { config, runtime } = rootTree({ workspace, model });

  const run = await runTree({ ...config, maxTurns: 2 }, "ROOT");
  expect(run.outcome.status).toBe("max_turns");
  expect(runtime.hasRunningChildren(run.session.id)).toBe(true);
  await runtime.shutdown();
  expect(runtime.hasRunningChildren(run.session.id)).toBe(false);
  const [record] = await runtime.store.list({});
  expect(record).toMatchObject({
    status: "CANCELLED",
    reason: "cancelled",
    error: "it was aborted (its parent's run ended before it finished)",
  });
});

test("aborting the root stops its background children, whose records say CANCELLED", async () => {
  const workspace = await tempWorkspace();
  const controller = new AbortController();
  const model = scriptedModel((request: ModelRequest): ScriptedReply => {
    if (firstUserText(request.messages) === "CHILD") return { text: "never", delayMs: 30_000 };
    if (toolResultsIn(request.messages).length === 0)
      return {
        toolCalls: [
          { name: "task", args: { description: "Slow", prompt: "CHILD", run_in_background: true } },
        ],
      };
    setTimeout(() => controller.abort("user pressed Ctrl-C"), 100);
    return { text: "waiting" };
  });
  const { config, runtime } = rootTree({ workspace, model });

  // Not stopped, the child would answer after 30 s and its record say COMPLETED.
  const run = await runTree(config, "ROOT", { signal: controller.signal });
  expect(run.outcome.status).toBe("aborted");
  const [record] = await runtime.store.list({});
  expect(record).toMatchObject({
    status: "CANCELLED",
    reason: "cancelled",
    error: "it was aborted (user pressed Ctrl-C)",
  });
});
