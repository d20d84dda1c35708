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

const spawn = (prompt: string): ScriptedReply => ({
  toolCalls: [{ name: "task", args: { description: "Go one level down", prompt } }],
});

/** Each level's first turn spawns the next level; once it has results it reports them. */
function levels(chain: Record<string, string>) {
  return (request: ModelRequest): ScriptedReply => {
    const prompt = firstUserText(request.messages);
    const results = toolResultsIn(request.messages);
    if (results.length > 0) return { text: `${prompt} saw: ${results.map((r) => r.content).join(" | ")}` };
    const next = chain[prompt];
    return next === undefined ? { text: `${prompt} did the work` } : spawn(next);
  };
}

const toolNames = (request: ModelRequest) => request.tools.map((tool) => tool.name);
const requestsOf = (requests: ModelRequest[], prompt: string) =>
  requests.filter((request) => firstUserText(request.messages) === prompt);

test("with default limits a child has no task tool and its forged call is refused", async () => {
  const workspace = await tempWorkspace();
  const model = scriptedModel(levels({ ROOT: "CHILD", CHILD: "GRANDCHILD" }));
  const { config, runtime } = rootTree({ workspace, model });

  const run = await runTree(config, "ROOT");
  expect(run.outcome.status).toBe("completed");
  const [first, second] = requestsOf(model.requests, "CHILD");
  expect(toolNames(first!).filter((name) => name.startsWith("task"))).toEqual([]);
  const [refusal] = toolResultsIn(second!.messages);
  expect(refusal).toMatchObject({ toolName: "task", isError: true });
  expect(refusal?.content).toContain('Unknown tool "task"');
  expect(requestsOf(model.requests, "GRANDCHILD")).toEqual([]);
  expect(runtime.started).toBe(1);
});

test("a task tool smuggled into an agent at the depth limit refuses to spawn", async () => {
  const workspace = await tempWorkspace();
  const model = scriptedModel(levels({ ROGUE: "CHILD" }));
  const { config, runtime } = rootTree({ workspace, model });
  const task = config.tools.find((tool) => tool.name === "task")!;

  const rogue = { ...config, name: "rogue", agentPath: ["main", "rogue"], depth: 1, tools: [task] };
  const run = await runTree(rogue, "ROGUE");
  expect(run.outcome.status).toBe("completed");
  const [refusal] = toolResultsIn(model.requests[1]!.messages);
  expect(refusal?.isError).toBe(true);
  expect(refusal?.content).toContain("Refused: agent main/rogue is at depth 1");
  expect(refusal?.content).toContain("maxDepth");
  expect(requestsOf(model.requests, "CHILD")).toEqual([]);
  expect(runtime.started).toBe(0);
});

test("with maxDepth 2 a grandchild runs and a great-grandchild is refused", async () => {
  const workspace = await tempWorkspace();
  const model = scriptedModel(levels({ ROOT: "CHILD", CHILD: "GRANDCHILD", GRANDCHILD: "GREAT" }));
  const { config, runtime } = rootTree({ workspace, model, limits: { maxDepth: 2 } });

  const run = await runTree(config, "ROOT");
  expect(run.outcome.status).toBe("completed");
  expect(toolNames(requestsOf(model.requests, "CHILD")[0]!)).toContain("task");
  const grandchild = requestsOf(model.requests, "GRANDCHILD");
  expect(grandchild).toHaveLength(2);
  expect(toolNames(grandchild[0]!).filter((name) => name.startsWith("task"))).toEqual([]);
  // The child's own child answered in its task call: nothing for the task_* control tools to act on.
  const childTools = toolNames(requestsOf(model.requests, "CHILD")[0]!);
  expect(childTools.filter((name) => name.startsWith("task"))).toEqual(["task"]);
  expect(toolResultsIn(grandchild[1]!.messages)[0]?.content).toContain('Unknown tool "task"');
  expect(requestsOf(model.requests, "GREAT")).toEqual([]);

  const starts = run.of("agent_start").map((event) => event.agentPath.join("/"));
  expect(starts).toEqual(["main", "main/general-purpose-1", "main/general-purpose-1/general-purpose-2"]);
  // The grandchild's report travelled up through its parent to the root.
  expect(run.outcome.text).toMatch(
    /^ROOT saw: <task_result[\s\S]*CHILD saw: <task_result[\s\S]*GRANDCHILD saw: /,
  );
  expect(runtime.started).toBe(2);
});

test("the descendant cap refuses children beyond it with a clear message", async () => {
  const workspace = await tempWorkspace();
  let rootTurn = 0;
  const model = scriptedModel((request) => {
    const prompt = firstUserText(request.messages);
    if (prompt !== "ROOT") return { text: `${prompt} done` };
    rootTurn++;
    if (rootTurn > 1) return { text: "root done" };
    return {
      toolCalls: ["A", "B", "C"].map((name) => ({
        name: "task",
        args: { description: `Part ${name}`, prompt: name },
      })),
    };
  });
  const { config, runtime } = rootTree({ workspace, model, limits: { maxDescendants: 2 } });

  const run = await runTree(config, "ROOT");
  expect(run.outcome).toMatchObject({ status: "completed", text: "root done" });
  const results = toolResultsIn(model.requests.at(-1)!.messages);
  expect(results.filter((r) => !r.isError)).toHaveLength(2);
  const refused = results.filter((r) => r.isError);
  expect(refused).toHaveLength(1);
  expect(refused[0]?.content).toContain("already started 2 subagents, the limit per run (maxDescendants 2)");
  expect(runtime.started).toBe(2);
});
