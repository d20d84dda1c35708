import { existsSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "vitest";
import { DEFAULT_RULES } from "../../src/permissions/defaults.ts";
import { WorkspaceTaskStore } from "../../src/tasks/workspace/workspace-task-store.ts";
import { scriptedModel } from "../../src/testing/scripted-model.ts";
import { firstUserText, tempWorkspace } from "../subagents/support/subagent-harness.ts";
import { REVIEW_SCRIPT, reviewAnswer, runWorkflow, workflowOptions } from "./support/workflow-harness.ts";

test("a review workflow fans out reviewers, verifies each finding and returns the confirmed ones", async () => {
  const workspace = await tempWorkspace();
  const model = scriptedModel((request) => ({ text: reviewAnswer(firstUserText(request.messages)) }));
  const { events, options } = workflowOptions(workspace, model);
  const outcome = await runWorkflow({ ...options, script: REVIEW_SCRIPT, args: { areas: ["api", "cli"] } });

  expect(outcome.status).toBe("completed");
  expect(outcome.result).toEqual({ confirmed: ["api-bug", "cli-bug"] });
  expect(outcome.agents).toEqual({ run: 6, replayed: 0, failed: 0 });
  expect(model.requests).toHaveLength(6);
  // Every agent is a child whose node sits under its phase, under the workflow.
  const starts = events.flatMap((e) => (e.type === "agent_start" ? [e.agentPath.join("/")] : []));
  expect(starts.filter((path) => path.startsWith("review/review/"))).toHaveLength(2);
  expect(starts.filter((path) => path.startsWith("review/verify/"))).toHaveLength(4);
  expect(starts).toContain("review/verify");
  // The run has a record that says how it ended.
  const record = await new WorkspaceTaskStore({ workspace }).get(outcome.runId);
  expect(record).toMatchObject({ status: "COMPLETED", agentType: "workflow" });
  expect(JSON.parse(record?.result ?? "null")).toEqual({ confirmed: ["api-bug", "cli-bug"] });
});

test("agent() options: tools narrows the child's tools, agent picks its type, and one that cannot start fails only its item", async () => {
  const workspace = await tempWorkspace();
  const model = scriptedModel(() => ({ text: "done" }));
  const { options } = workflowOptions(workspace, model);
  const outcome = await runWorkflow({
    ...options,
    script: `export const meta = { name: "options" };
return await parallel([
  () => agent("narrow", { tools: ["read", "grep", "bash"], agent: "explore" }),
  () => agent("no such agent", { agent: "nope" }),
]);`,
  });

  expect(outcome.result).toEqual(["done", null]);
  expect(outcome.failures).toEqual([
    {
      where: "parallel item 1",
      error: expect.stringMatching(/could not start: Unknown subagent_type "nope"/),
    },
  ]);
  expect(model.requests).toHaveLength(1);
  // explore has read, grep, glob, list and bash: the call keeps only those it named.
  expect(model.requests[0]!.tools.map((tool) => tool.name).sort()).toEqual(["bash", "grep", "read"]);
  expect(model.requests[0]!.system).toContain("You are an exploration agent");
});

test("a script that reaches for the host fails the run with the sandbox's error; its record says so and no agent ran", async () => {
  const workspace = await tempWorkspace();
  const model = scriptedModel(() => ({ text: "never" }));
  const { options } = workflowOptions(workspace, model);
  const outcome = await runWorkflow({
    ...options,
    script: `export const meta = { name: "sneaky" };\nconst fs = require("fs");\nreturn await agent(fs.readFileSync("/etc/passwd", "utf8"));`,
  });
  expect(outcome).toMatchObject({ status: "failed", agents: { run: 0, replayed: 0, failed: 0 } });
  expect(outcome.error).toMatch(/ReferenceError: '?require'? is not defined \(at .*inline:2/);
  expect(model.requests).toHaveLength(0);
  expect(await new WorkspaceTaskStore({ workspace }).get(outcome.runId)).toMatchObject({
    status: "FAILED",
    error: outcome.error,
  });
});

test("resuming a run id this workspace does not know is a clear error that changes nothing", async () => {
  const workspace = await tempWorkspace();
  const model = scriptedModel(() => ({ text: "x" }));
  const { options } = workflowOptions(workspace, model);
  await expect(
    runWorkflow({
      ...options,
      script: 'export const meta = { name: "x" };\nreturn 1;',
      resume: "wf-20260101-000000-nope00",
    }),
  ).rejects.toThrow(
    /No workflow run wf-20260101-000000-nope00 to resume in this workspace .*agentry tasks list/,
  );
  expect(await new WorkspaceTaskStore({ workspace }).list({})).toEqual([]);
  expect(model.requests).toHaveLength(0);
});

test("a workflow's agents keep the caller's permission rules: a denied agent type fails its call, and a child's denied tool stays denied", async () => {
  const workspace = await tempWorkspace();
  const model = scriptedModel((request) =>
    request.messages.length === 1
      ? { toolCalls: [{ name: "write", args: { path: "out.txt", content: "x" } }] }
      : { text: "tried" },
  );
  const { options } = workflowOptions(workspace, model, {
    permission: {
      rules: [
        ...DEFAULT_RULES,
        { permission: "task", pattern: "plan", action: "deny" },
        { permission: "edit", pattern: "*", action: "deny" },
      ],
      mode: "bypass",
    },
  });
  const outcome = await runWorkflow({
    ...options,
    script: `export const meta = { name: "rules" };
return await parallel([() => agent("plan it", { agent: "plan" }), () => agent("write out.txt")]);`,
  });

  expect(outcome.result).toEqual([null, "tried"]);
  expect(outcome.failures[0]?.error).toMatch(/could not start: .*do not allow starting subagent "plan"/);
  // The writer's tool list has no write (its rules deny edits), so the call it made was refused.
  expect(model.requests[0]!.tools.map((tool) => tool.name)).not.toContain("write");
  expect(existsSync(join(workspace, "out.txt"))).toBe(false);
});
