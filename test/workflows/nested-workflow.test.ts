import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { expect, test } from "vitest";
import { scriptedModel } from "../../src/testing/scripted-model.ts";
import { firstUserText, tempWorkspace } from "../subagents/support/subagent-harness.ts";
import { runWorkflow, workflowOptions } from "./support/workflow-harness.ts";

test("workflow(name, args) runs a saved workflow inline, one level deep, its agents in the same run", async () => {
  const workspace = await tempWorkspace();
  await mkdir(join(workspace, ".agentry/workflows"), { recursive: true });
  await writeFile(
    join(workspace, ".agentry/workflows/summarize.js"),
    'export const meta = { name: "summarize" };\nreturn await agent("Summarize " + args.topic);\n',
  );
  await writeFile(
    join(workspace, ".agentry/workflows/nests.js"),
    'export const meta = { name: "nests" };\nreturn await workflow("summarize", { topic: "deeper" });\n',
  );
  const model = scriptedModel((request) => ({
    text: `summary of ${firstUserText(request.messages).split(" ")[1]}`,
  }));
  const { options } = workflowOptions(workspace, model);
  const outcome = await runWorkflow({
    ...options,
    homeDir: workspace,
    script: `export const meta = { name: "outer" };
const inner = await workflow("summarize", { topic: "api" });
const deeper = await workflow("nests").catch((error) => error.message);
return { inner, deeper };`,
  });

  expect(outcome.status).toBe("completed");
  expect(outcome.result).toEqual({
    inner: "summary of api",
    deeper: expect.stringMatching(/workflow\("nests"\).*nest one level only/),
  });
  expect(outcome.agents).toEqual({ run: 1, replayed: 0, failed: 0 });
});

test("budget tells the script the run's token budget and what its agents used", async () => {
  const workspace = await tempWorkspace();
  const model = scriptedModel(() => ({ text: "ok", usage: { input: 100, output: 20 } }));
  const { options } = workflowOptions(workspace, model);
  const outcome = await runWorkflow({
    ...options,
    budget: { maxTokens: 100_000 },
    script: `export const meta = { name: "budgeted" };
const before = [budget.total, budget.spent(), budget.remaining()];
await agent("one");
return { before, after: budget.spent(), left: budget.remaining() };`,
  });
  expect(outcome.result).toEqual({ before: [100_000, 0, 100_000], after: 120, left: 99_880 });
});
