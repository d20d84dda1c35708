import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, expect, test } from "vitest";
import type { ModelRequest } from "../../src/model/model.ts";
import type { AskHandler } from "../../src/permissions/gate.ts";
import { type ScriptedReply, scriptedModel } from "../../src/testing/index.ts";
import { type ModelServer, type RecordedRequest, startModelServer } from "../support/model-server.ts";
import {
  CHILD_MARK,
  firstUserText,
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

test("an ask raised by a child or grandchild reaches the root's handler labelled with its agent path", async () => {
  const ws = await tempWorkspace();
  const model = scriptedModel((request: ModelRequest): ScriptedReply => {
    const prompt = firstUserText(request.messages);
    const results = toolResultsIn(request.messages);
    if (results.length > 0) return { text: results.map((r) => r.content).join("\n") };
    const write = (path: string) => ({ name: "write", args: { path, content: `${prompt}\n` } });
    if (prompt === "ROOT")
      return { toolCalls: [{ name: "task", args: { description: "Write files", prompt: "CHILD" } }] };
    if (prompt === "CHILD")
      return {
        toolCalls: [
          write("child.txt"),
          { name: "task", args: { description: "Write more", prompt: "GRANDCHILD" } },
        ],
      };
    return { toolCalls: [write("grandchild.txt")] };
  });
  const asked: Array<{ path: string; permission: string; patterns: string[] }> = [];
  const onAsk: AskHandler = async (request) => {
    asked.push({
      path: request.agentPath.join("/"),
      permission: request.permission,
      patterns: request.patterns,
    });
    return request.agentPath.length === 2 ? "once" : "reject";
  };
  const { config } = rootTree({ workspace: ws, model, mode: "default", onAsk, limits: { maxDepth: 2 } });

  const run = await runTree(config, "ROOT");
  expect(run.outcome.status).toBe("completed");
  expect(asked).toEqual([
    { path: "main/general-purpose-1", permission: "edit", patterns: ["child.txt"] },
    { path: "main/general-purpose-1/general-purpose-2", permission: "edit", patterns: ["grandchild.txt"] },
  ]);
  expect(readFileSync(join(ws, "child.txt"), "utf8")).toBe("CHILD\n");
  expect(existsSync(join(ws, "grandchild.txt"))).toBe(false);
  const grandchild = model.requests.filter((r) => firstUserText(r.messages) === "GRANDCHILD").at(-1)!;
  expect(toolResultsIn(grandchild.messages)[0]?.content).toContain("The user rejected edit 'grandchild.txt'");
});

test("in a non-interactive run in default mode a child's ask is denied with a message its model sees", async () => {
  const ws = await tempWorkspace();
  const isChild = (request: RecordedRequest) => wireSystem(request.body).includes(CHILD_MARK);
  let childCalls = 0;
  let rootCalls = 0;
  server = await startModelServer((request) => {
    if (isChild(request)) {
      childCalls++;
      return childCalls === 1
        ? { toolCalls: [{ id: "toolu_w", name: "write", args: { path: "out.txt", content: "data" } }] }
        : { text: "I could not write out.txt: it needs approval." };
    }
    rootCalls++;
    return rootCalls === 1
      ? {
          toolCalls: [
            { id: "toolu_t", name: "task", args: { description: "Write a file", prompt: "Write out.txt" } },
          ],
        }
      : { text: "The child could not write." };
  });
  const { config } = rootTree({ workspace: ws, model: serverModel(server), mode: "default" });

  const run = await runTree(config, "ROOT");
  expect(run.outcome).toMatchObject({ status: "completed", text: "The child could not write." });
  expect(existsSync(join(ws, "out.txt"))).toBe(false);
  const childRequests = server.requests.filter(isChild);
  expect(childRequests).toHaveLength(2);
  const resultMessage = wireMessages(childRequests[1]!.body).at(-1)!;
  const block = (resultMessage.content as Array<Record<string, unknown>>)[0];
  expect(block).toMatchObject({ type: "tool_result", tool_use_id: "toolu_w", is_error: true });
  const [text] = wireTexts(resultMessage);
  expect(text).toContain("edit 'out.txt'");
  expect(text).toContain('needs approval and no one can approve it in this run (permission mode "default")');
  expect(text).toContain("denied for agent main/general-purpose-1");
});
