import { rm } from "node:fs/promises";
import { afterEach, expect, test } from "vitest";
import { scriptedModel } from "../../src/testing/index.ts";
import {
  firstUserText,
  rootTree,
  runTree,
  tempWorkspace,
  toolResultsIn,
} from "./support/subagent-harness.ts";

let workspace: string | undefined;
afterEach(async () => {
  if (workspace) await rm(workspace, { recursive: true, force: true });
  workspace = undefined;
});

test("a child that outlives its wall-clock limit is aborted and the parent gets an error saying so", async () => {
  workspace = await tempWorkspace();
  const model = scriptedModel((request) => {
    if (firstUserText(request.messages) !== "ROOT") return { text: "too late", delayMs: 10_000 };
    const [result] = toolResultsIn(request.messages);
    if (result === undefined)
      return {
        toolCalls: [
          { name: "task", args: { description: "Slow work", prompt: "CHILD", subagent_type: "explore" } },
        ],
      };
    return { text: "went on without it" };
  });
  const { config } = rootTree({ workspace, model, limits: { timeoutMs: 200 } });

  const started = Date.now();
  const run = await runTree(config, "ROOT");
  expect(Date.now() - started).toBeLessThan(5_000);
  expect(run.outcome).toMatchObject({ status: "completed", text: "went on without it" });
  const [result] = toolResultsIn(model.requests.at(-1)!.messages);
  expect(result?.isError).toBe(true);
  expect(result?.content).toMatch(
    /^Subagent explore \(task_id sub-[a-z0-9-]+\) did not complete: status timeout — /,
  );
  expect(result?.content).toContain("wall-clock limit of 200 ms");
  const childEnd = run.of("agent_end").find((event) => event.agentPath.length === 2);
  expect(childEnd?.outcome.status).toBe("aborted");
});
