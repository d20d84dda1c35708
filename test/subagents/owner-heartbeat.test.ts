import { setTimeout as sleep } from "node:timers/promises";
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

test("the owner heartbeats a running child's record and stops once it finished", async () => {
  const workspace = await tempWorkspace();
  const model = scriptedModel((request: ModelRequest): ScriptedReply => {
    if (firstUserText(request.messages) === "CHILD")
      return toolResultsIn(request.messages).length === 0
        ? { toolCalls: [{ name: "bash", args: { command: "sleep 0.8" } }] }
        : { text: "done" };
    return toolResultsIn(request.messages).length === 0
      ? {
          toolCalls: [
            { name: "task", args: { description: "Beat", prompt: "CHILD", run_in_background: true } },
          ],
        }
      : { text: "ok" };
  });
  const { config, runtime } = rootTree({
    workspace,
    model,
    limits: { heartbeatMs: 50, orphanTimeoutMs: 1_000 },
  });

  const running = runTree(config, "ROOT");
  const beats = new Set<string>();
  while (beats.size < 4) {
    const [record] = await runtime.store.list({ status: "RUNNING" });
    if (record) beats.add(record.updatedAt);
    else if (beats.size > 0) break;
    await sleep(30);
  }
  expect(beats.size).toBeGreaterThanOrEqual(4);
  await running;
  const [finished] = await runtime.store.list({});
  expect(finished?.status).toBe("COMPLETED");
  await sleep(200);
  expect((await runtime.store.get(finished!.taskId))?.updatedAt).toBe(finished?.updatedAt);
  expect(runtime.control.activeIds).toEqual([]);
});
