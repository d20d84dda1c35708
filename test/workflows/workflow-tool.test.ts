import { afterEach, expect, test } from "vitest";
import { WorkspaceTaskStore } from "../../src/tasks/workspace/workspace-task-store.ts";
import { scriptedModel } from "../../src/testing/scripted-model.ts";
import { withWorkflows } from "../../src/workflows/workflow-tool.ts";
import {
  CHILD_MARK,
  firstUserText,
  isChildRequest,
  rootTree,
  runTree,
  serverModel,
  tempWorkspace,
  toolResultsIn,
  wireMessages,
  wireSystem,
  wireTexts,
  wireToolNames,
} from "../subagents/support/subagent-harness.ts";
import { type ModelServer, type RecordedRequest, startModelServer } from "../support/model-server.ts";
import { REVIEW_SCRIPT, reviewAnswer } from "./support/workflow-harness.ts";

let server: ModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const isChild = (request: RecordedRequest) => wireSystem(request.body).includes(CHILD_MARK);
const allTexts = (request: RecordedRequest) => wireMessages(request.body).flatMap(wireTexts).join("\n");

test("the model runs a review workflow with its workflow tool; the result comes back as a notification", async () => {
  const ws = await tempWorkspace();
  server = await startModelServer((request) => {
    if (isChild(request)) return { text: reviewAnswer(wireTexts(wireMessages(request.body)[0]!)[0] ?? "") };
    const texts = allTexts(request);
    if (texts.includes("<task-notification>")) {
      const confirmed = /"confirmed": \[([^\]]*)\]/.exec(texts)?.[1]?.replace(/\s+/g, " ").trim();
      return { text: `Confirmed findings: ${confirmed}` };
    }
    if (texts.includes("started in the background"))
      return { text: "The review runs; I will report when it ends." };
    return {
      toolCalls: [{ name: "workflow", args: { script: REVIEW_SCRIPT, args: { areas: ["api", "cli"] } } }],
    };
  });
  const { config, runtime } = rootTree({ workspace: ws, model: serverModel(server) });
  const root = withWorkflows(config, runtime, ws);
  const run = await runTree(root, "Run a workflow that reviews api and cli.");
  await runtime.shutdown();

  expect(run.outcome).toMatchObject({
    status: "completed",
    text: 'Confirmed findings: "api-bug", "cli-bug"',
  });
  expect(wireToolNames(server.requests[0]!.body)).toContain("workflow");
  expect(server.requests.filter(isChild)).toHaveLength(6);
  // The live tree: the workflow under the root, its phases under it, each agent under its phase.
  const starts = run.of("agent_start").map((event) => event.agentPath.join("/"));
  expect(starts).toContain("main/review");
  expect(starts.filter((path) => path.startsWith("main/review/review/"))).toHaveLength(2);
  expect(starts.filter((path) => path.startsWith("main/review/verify/"))).toHaveLength(4);
  // The workflow's own events reach the root's stream from its node (stream-json prints them).
  const phases = run.events.flatMap((event) => (event.type === "workflow_phase" ? [event] : []));
  expect(phases.map((event) => [event.agentPath.join("/"), event.title])).toEqual([
    ["main/review", "Review"],
    ["main/review", "Verify"],
  ]);
  expect(run.events.filter((event) => event.type === "workflow_end")).toHaveLength(1);
  // The run is a task of the root's session, delivered once.
  const records = await new WorkspaceTaskStore({ workspace: ws }).list({ parentSessionId: run.session.id });
  const workflowRun = records.find((record) => record.agentType === "workflow");
  expect(workflowRun).toMatchObject({ status: "COMPLETED", parentAgentId: "main" });
  expect(workflowRun?.deliveredAt).toBeDefined();
});

test("without opting in, the root has no workflow tool", async () => {
  const ws = await tempWorkspace();
  server = await startModelServer({ text: "ok" });
  const { config, runtime } = rootTree({ workspace: ws, model: serverModel(server) });
  await runTree(config, "hello");
  await runtime.shutdown();
  expect(wireToolNames(server.requests[0]!.body)).not.toContain("workflow");
});

test("the tool's dry run returns the plan without starting an agent; run_in_background false returns the result", async () => {
  const ws = await tempWorkspace();
  const calls = { root: 0 };
  const model = scriptedModel((request) => {
    if (isChildRequest(request)) return { text: reviewAnswer(firstUserText(request.messages)) };
    calls.root++;
    const args = { script: REVIEW_SCRIPT, args: { areas: ["api"] } };
    if (calls.root === 1) return { toolCalls: [{ name: "workflow", args: { ...args, dry_run: true } }] };
    if (calls.root === 2)
      return { toolCalls: [{ name: "workflow", args: { ...args, run_in_background: false } }] };
    return { text: "done" };
  });
  const { config, runtime } = rootTree({ workspace: ws, model });
  const run = await runTree(withWorkflows(config, runtime, ws), "Plan, then run the review workflow.");
  await runtime.shutdown();

  const results = toolResultsIn(run.session.messages).map((part) => part.content);
  expect(results[0]).toMatch(/^Plan of workflow review: at least 1 agent \(/);
  expect(results[0]).toContain("- Review: 1 agent");
  expect(results[1]).toMatch(/Workflow review \(run wf-\S+\) completed: 3 agents run, 0 replayed, 0 failed/);
  expect(results[1]).toContain('"confirmed": [\n    "api-bug"\n  ]');
  expect(model.requests.filter(isChildRequest)).toHaveLength(3);
});
