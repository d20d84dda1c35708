import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { expect, test } from "vitest";
import type { ModelRequest } from "../../src/model/model.ts";
import { type ScriptedReply, scriptedModel } from "../../src/testing/index.ts";
import { waitFor } from "../support/processes.ts";
import {
  firstUserText,
  rootTree,
  runTree,
  tempWorkspace,
  toolResultsIn,
} from "./support/subagent-harness.ts";

test("the owner heartbeats a running child's record and stops once it finished", async () => {
  const workspace = await tempWorkspace();
  // The child's command runs until the test has seen its beats, however slowly the machine writes them.
  const go = join(workspace, "child-may-finish");
  const model = scriptedModel((request: ModelRequest): ScriptedReply => {
    if (firstUserText(request.messages) === "CHILD")
      return toolResultsIn(request.messages).length === 0
        ? { toolCalls: [{ name: "bash", args: { command: `while [ ! -e ${go} ]; do sleep 0.02; done` } }] }
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
  await waitFor(
    async () => {
      const [record] = await runtime.store.list({ status: "RUNNING" });
      if (record) beats.add(record.updatedAt);
      return beats.size >= 4;
    },
    10_000,
    "four heartbeats of the running child",
  );
  await writeFile(go, "");
  await running;
  const [finished] = await runtime.store.list({});
  expect(finished?.status).toBe("COMPLETED");
  await sleep(200);
  expect((await runtime.store.get(finished!.taskId))?.updatedAt).toBe(finished?.updatedAt);
  expect(runtime.control.activeIds).toEqual([]);
});
