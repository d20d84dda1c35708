import { expect, test } from "vitest";
import type { ModelRequest } from "../../src/model/model.ts";
import { scriptedModel } from "../../src/testing/index.ts";
import { gate } from "./support/gate.ts";
import { notificationsIn } from "./support/notifications.ts";
import {
  firstUserText,
  rootTree,
  runTree,
  tempWorkspace,
  toolResultsIn,
} from "./support/subagent-harness.ts";

const CONTROL = ["task_send", "task_wait", "task_output", "task_cancel", "task_list"];
const spawnTools = (request: ModelRequest) =>
  request.tools.map((tool) => tool.name).filter((name) => name === "task" || name.startsWith("task_"));
const parentRequests = (requests: readonly ModelRequest[]) =>
  requests.filter((request) => firstUserText(request.messages) === "ROOT");

test("children that answer in their task call leave the parent's system prompt and tools the same on every call", async () => {
  const workspace = await tempWorkspace();
  const model = scriptedModel((request) => {
    if (firstUserText(request.messages) !== "ROOT")
      return { text: `report of ${firstUserText(request.messages)}` };
    const results = toolResultsIn(request.messages).length;
    if (results < 2)
      return {
        toolCalls: [{ name: "task", args: { description: `Part ${results}`, prompt: `CHILD ${results}` } }],
      };
    return { text: "done" };
  });
  const { config } = rootTree({ workspace, model });

  const run = await runTree(config, "ROOT");
  expect(run.outcome).toMatchObject({ status: "completed", text: "done" });
  const calls = parentRequests(model.requests);
  expect(calls).toHaveLength(3);
  // The start of the provider's prompt cache (tools, then the system prompt) never moves.
  for (const call of calls) {
    expect(call.system).toBe(calls[0]!.system);
    expect(call.tools).toEqual(calls[0]!.tools);
    expect(spawnTools(call)).toEqual(["task"]);
  }
  // The system prompt is the agent's own: no roster or task list rides along.
  expect(calls[0]!.system).toBe(config.systemPrompt);
});

test("the control tools are offered from the call after a child starts in the background, and stay", async () => {
  const workspace = await tempWorkspace();
  const model = scriptedModel((request) => {
    if (firstUserText(request.messages) !== "ROOT") return { text: "background report" };
    const results = toolResultsIn(request.messages).length;
    if (results === 0)
      return {
        toolCalls: [
          { name: "task", args: { description: "Slow part", prompt: "CHILD", run_in_background: true } },
        ],
      };
    if (notificationsIn(request.messages).length === 0) return { text: "waiting for it" };
    return { text: "all done" };
  });
  const { config } = rootTree({ workspace, model });

  const run = await runTree(config, "ROOT");
  expect(run.outcome).toMatchObject({ status: "completed", text: "all done" });
  const calls = parentRequests(model.requests);
  expect(calls.length).toBeGreaterThanOrEqual(3);
  expect(spawnTools(calls[0]!)).toEqual(["task"]);
  // Offered once the child ran in the background — also after it finished and was delivered.
  for (const call of calls.slice(1)) expect(spawnTools(call)).toEqual(["task", ...CONTROL]);
  expect(notificationsIn(calls.at(-1)!.messages)).toHaveLength(1);
});

test("a sync child moved to the background when its call wait ran out brings the control tools", async () => {
  const workspace = await tempWorkspace();
  const late = gate();
  const model = scriptedModel(async (request) => {
    if (firstUserText(request.messages) !== "ROOT") {
      await late.opened;
      return { text: "late" };
    }
    if (toolResultsIn(request.messages).length === 0)
      return { toolCalls: [{ name: "task", args: { description: "Slow", prompt: "CHILD" } }] };
    setTimeout(late.open, 50);
    return { text: notificationsIn(request.messages).length === 0 ? "went on" : "got it" };
  });
  const { config } = rootTree({ workspace, model, limits: { timeoutMs: 100 } });

  const run = await runTree(config, "ROOT");
  expect(run.outcome).toMatchObject({ status: "completed", text: "got it" });
  const calls = parentRequests(model.requests);
  expect(spawnTools(calls[0]!)).toEqual(["task"]);
  expect(spawnTools(calls[1]!)).toEqual(["task", ...CONTROL]);
});

test("a control tool the model calls before it is offered still runs", async () => {
  const workspace = await tempWorkspace();
  const model = scriptedModel((request) => {
    const results = toolResultsIn(request.messages);
    if (results.length === 0) return { toolCalls: [{ name: "task_list", args: {} }] };
    return { text: results[0]!.content };
  });
  const { config } = rootTree({ workspace, model });

  const run = await runTree(config, "ROOT");
  expect(spawnTools(model.requests[0]!)).toEqual(["task"]);
  const [result] = toolResultsIn(run.session.messages);
  expect(result?.isError).toBe(false);
  expect(result?.content).toBe("You have started no subagents.");
});
