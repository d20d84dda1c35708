import { expect, test } from "vitest";
import { WorkspaceTaskStore } from "../../src/tasks/workspace/workspace-task-store.ts";
import { scriptedModel } from "../../src/testing/scripted-model.ts";
import { firstUserText, tempWorkspace } from "../subagents/support/subagent-harness.ts";
import { runWorkflow, workflowOptions } from "./support/workflow-harness.ts";

const SEQUENCE = `export const meta = { name: "sequence" };
const a = await agent("first");
const b = await agent("second " + a);
return await agent("third " + b);
`;

test("agentry tasks cancel (a cancel requested on the run's record) stops the run and its running agent", async () => {
  const workspace = await tempWorkspace();
  let started: () => void = () => {};
  const running = new Promise<void>((resolve) => {
    started = resolve;
  });
  const model = scriptedModel((request) => {
    if (firstUserText(request.messages) === "first") return { text: "a" };
    started();
    return { text: "never", delayMs: 60_000 };
  });
  const { options } = workflowOptions(workspace, model);
  const store = new WorkspaceTaskStore({ workspace });
  let runId = "";
  const done = runWorkflow({ ...options, script: SEQUENCE, onStart: (id) => (runId = id) });
  await running;
  await store.requestCancel(runId);
  const outcome = await done;

  expect(outcome.status).toBe("cancelled");
  expect(outcome.error).toMatch(/cancelled from another process/);
  expect(await store.get(runId)).toMatchObject({ status: "CANCELLED", reason: "cancelled" });
  const children = (await store.list({})).filter((record) => record.agentType !== "workflow");
  expect(children.map((child) => child.status).sort()).toEqual(["CANCELLED", "COMPLETED"]);
  expect(model.requests).toHaveLength(2);
});

test("a whole-workflow token budget stops the run once its agents used more (budget_exceeded, record FAILED budget)", async () => {
  const workspace = await tempWorkspace();
  const model = scriptedModel(() => ({ text: "x", usage: { input: 20_000, output: 100 } }));
  const { options } = workflowOptions(workspace, model);
  const outcome = await runWorkflow({ ...options, script: SEQUENCE, budget: { maxTokens: 30_000 } });

  expect(outcome.status).toBe("budget_exceeded");
  expect(outcome.error).toMatch(/token budget of the run exceeded/);
  // The second agent's reply passes the budget (20,100 + 20,100 tokens): the run stops there.
  expect(model.requests).toHaveLength(2);
  const record = await new WorkspaceTaskStore({ workspace }).get(outcome.runId);
  expect(record).toMatchObject({ status: "FAILED", reason: "budget" });
});

test("a time budget stops a run whose agent takes too long", async () => {
  const workspace = await tempWorkspace();
  const model = scriptedModel(() => ({ text: "late", delayMs: 30_000 }));
  const { options } = workflowOptions(workspace, model);
  // Not stopped, the agent would answer "late" and the run complete.
  const outcome = await runWorkflow({ ...options, script: SEQUENCE, budget: { maxDurationMs: 300 } });
  expect(outcome.status).toBe("budget_exceeded");
  expect(outcome.error).toMatch(/time budget/);
});
