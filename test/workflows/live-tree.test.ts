import { expect, test } from "vitest";
import { renderAgentTree } from "../../src/cli/render/agent-tree-view.ts";
import { scriptedModel } from "../../src/testing/scripted-model.ts";
import { emptyAgentTree, reduceAgentTree } from "../../src/tree/agent-tree-state.ts";
import { firstUserText, tempWorkspace } from "../subagents/support/subagent-harness.ts";
import { REVIEW_SCRIPT, reviewAnswer, runWorkflow, workflowOptions } from "./support/workflow-harness.ts";

test("the live tree draws the workflow, its phases under it and each agent under its phase", async () => {
  const model = scriptedModel((request) => ({ text: reviewAnswer(firstUserText(request.messages)) }));
  const { events, options } = workflowOptions(await tempWorkspace(), model);
  await runWorkflow({ ...options, script: REVIEW_SCRIPT, args: { areas: ["api", "cli"] } });
  let state = emptyAgentTree;
  for (const event of events) if ("agentPath" in event) state = reduceAgentTree(state, event, 0);
  const lines = renderAgentTree(state, { width: 120, now: 1_000 }).map((line) =>
    line.replace(/\s+/g, " ").trim(),
  );

  const shape = lines.map((line) => line.split(" ").slice(0, 3).join(" "));
  // Agents of a phase appear in the order they started (concurrent ones in any order).
  expect(shape[0]).toBe("review workflow ✓");
  expect(shape[1]).toBe("├─ review phase");
  expect(shape[2]).toMatch(/^│ ├─ general-purpose-[12]$/);
  expect(shape[3]).toMatch(/^│ └─ general-purpose-[12]$/);
  expect(shape[4]).toBe("└─ verify phase");
  const verifiers = shape.slice(5, 9);
  for (const line of verifiers) expect(line).toMatch(/^[├└]─ general-purpose-[3-6] general-purpose$/);
  expect(verifiers.at(-1)).toMatch(/^└─/);
  expect(shape[9]).toBe("6 agents (6");
});
