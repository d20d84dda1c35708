import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, expect, test } from "vitest";
import type { Model, ModelRequest } from "../../src/model/model.ts";
import { type ScriptedReply, scriptedModel } from "../../src/testing/index.ts";
import { type ModelServer, type RecordedRequest, startModelServer } from "../support/model-server.ts";
import {
  CHILD_MARK,
  firstUserText,
  registryWith,
  rootTree,
  runTree,
  serverModel,
  tempWorkspace,
  toolResultsIn,
  wireMessages,
  wireSystem,
  wireTexts,
} from "./support/subagent-harness.ts";

let server: ModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** The root delegates once to `type`, then answers with what it got back. */
function rootThenChild(type: string, child: (request: ModelRequest) => ScriptedReply) {
  return (request: ModelRequest): ScriptedReply => {
    if (firstUserText(request.messages) !== "ROOT") return child(request);
    const [result] = toolResultsIn(request.messages);
    if (result === undefined) {
      return {
        toolCalls: [
          { name: "task", args: { description: "Delegate it", prompt: "CHILD", subagent_type: type } },
        ],
      };
    }
    return { text: `root finished anyway (child error: ${result.isError})` };
  };
}

const TASK_ERROR = /^Subagent (\w+) \(task_id (sub-[a-z0-9-]+)\) did not complete: status (\S+) — /;

test("a child whose model throws gives the parent an error result with its task_id, and the parent completes", async () => {
  const workspace = await tempWorkspace();
  const broken: Model = {
    id: "broken:model",
    stream() {
      throw new Error("adapter exploded");
    },
  };
  const registry = registryWith({
    name: "crasher",
    description: "Crashes.",
    prompt: "You crash.",
    model: "broken:model",
  });
  const model = scriptedModel(rootThenChild("crasher", () => ({ text: "unreachable" })));
  const { config, runtime } = rootTree({ workspace, model, registry, createModel: () => broken });

  const run = await runTree(config, "ROOT");
  expect(run.outcome).toMatchObject({
    status: "completed",
    text: "root finished anyway (child error: true)",
  });
  const [result] = toolResultsIn(model.requests.at(-1)!.messages);
  const match = TASK_ERROR.exec(result!.content);
  expect(match?.slice(1, 4)).toEqual(["crasher", expect.stringMatching(/^sub-/), "error"]);
  expect(result?.content).toContain("adapter exploded");
  expect(runtime.child(match![2]!)).toBeDefined();
});

test("a child that loops to its turn limit gives an error result naming the limit", async () => {
  const workspace = await tempWorkspace();
  await writeFile(join(workspace, "a.txt"), "again\n");
  const registry = registryWith({ name: "looper", description: "Loops.", prompt: "You loop.", maxTurns: 2 });
  const model = scriptedModel(
    rootThenChild("looper", () => ({
      text: "still reading",
      toolCalls: [{ name: "read", args: { path: "a.txt" } }],
    })),
  );
  const { config } = rootTree({ workspace, model, registry });

  const run = await runTree(config, "ROOT");
  expect(run.outcome.text).toBe("root finished anyway (child error: true)");
  const [result] = toolResultsIn(model.requests.at(-1)!.messages);
  expect(result?.content).toMatch(TASK_ERROR);
  expect(result?.content).toContain("status max_turns — it used all 2 of its turns without finishing");
  expect(result?.content).toContain("Its last text before it stopped:\nstill reading");
  expect(result?.content).toContain("turns: 2");
});

test("a child whose provider answers 500 gives an error result and the parent completes", async () => {
  const workspace = await tempWorkspace();
  const isChild = (request: RecordedRequest) => wireSystem(request.body).includes(CHILD_MARK);
  let rootCalls = 0;
  server = await startModelServer((request) => {
    if (isChild(request)) return { status: 500, errorMessage: "upstream is down" };
    rootCalls++;
    return rootCalls === 1
      ? {
          toolCalls: [
            { name: "task", args: { description: "Delegate it", prompt: "CHILD", subagent_type: "explore" } },
          ],
        }
      : { text: "I answered without the child." };
  });
  const model = serverModel(server, "anthropic:claude-sonnet-4-5", {
    retry: { maxRetries: 2, baseDelayMs: 1, maxDelayMs: 5 },
  });
  const { config } = rootTree({ workspace, model });

  const run = await runTree(config, "ROOT");
  expect(run.outcome).toMatchObject({ status: "completed", text: "I answered without the child." });
  // The retry policy tried three times before the child gave up.
  expect(server.requests.filter(isChild)).toHaveLength(3);
  const last = server.requests.filter((r) => !isChild(r)).at(-1)!;
  const [result] = wireTexts(wireMessages(last.body).at(-1)!);
  expect(result).toMatch(TASK_ERROR);
  expect(result).toContain("status error");
  expect(result).toContain("upstream is down");
  const block = (wireMessages(last.body).at(-1)!.content as Array<Record<string, unknown>>)[0];
  expect(block?.is_error).toBe(true);
});
