import { expect, test } from "vitest";
import type { ModelRequest } from "../../src/model/model.ts";
import { type ScriptedReply, scriptedModel } from "../../src/testing/index.ts";
import { waitFor } from "../support/processes.ts";
import { notificationsIn, taskIdIn } from "./support/notifications.ts";
import {
  firstUserText,
  rootTree,
  runTree,
  tempWorkspace,
  toolResultsIn,
} from "./support/subagent-harness.ts";

test("task_output shows a running child's progress, and with block its result", async () => {
  const workspace = await tempWorkspace();
  const model = scriptedModel(async (request: ModelRequest): Promise<ScriptedReply> => {
    const results = toolResultsIn(request.messages);
    if (firstUserText(request.messages) !== "ROOT")
      return results.length === 0
        ? { toolCalls: [{ name: "bash", args: { command: "sleep 1.5; echo slept" } }] }
        : { text: `the command said: ${results[0]?.content.trim()}` };
    if (results.length === 0)
      return {
        toolCalls: [
          { name: "task", args: { description: "Sleep a bit", prompt: "SLEEP", run_in_background: true } },
        ],
      };
    const id = taskIdIn(results[0]!.content);
    if (results.length === 1) {
      await waitFor(
        () => (runtime.child(id!)?.progress.toolsInFlight ?? 0) > 0,
        10_000,
        "the child's bash to start",
      );
      return { toolCalls: [{ name: "task_output", args: { task_id: id } }] };
    }
    if (results.length === 2)
      return { toolCalls: [{ name: "task_output", args: { task_id: id, block: true, timeout_s: 20 } }] };
    return { text: `notifications: ${notificationsIn(request.messages).length}` };
  });
  const { config, runtime } = rootTree({ workspace, model });

  const run = await runTree(config, "ROOT");
  const [, running, finished] = toolResultsIn(run.session.messages);
  expect(running?.content).toMatch(
    /^<task task_id="sub-[^"]+" agent="general-purpose" status="RUNNING">\ndescription: Sleep a bit\nprogress: elapsed [\d.]+(ms|s) · turns 1 · last tool: bash \(running\)\n<\/task>$/,
  );
  expect(finished?.content).toMatch(
    /status="COMPLETED">\ndescription: Sleep a bit\nfinished after [\d.]+s · tokens: 20 in \/ 20 out\nresult:\nthe command said: slept/,
  );
  // The result was read with task_output, so it is not notified again.
  expect(run.outcome.text).toBe("notifications: 0");
});
