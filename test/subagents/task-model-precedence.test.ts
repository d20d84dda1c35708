import { afterEach, expect, test } from "vitest";
import type { Model, ModelRequest } from "../../src/model/model.ts";
import { createModel } from "../../src/model/registry.ts";
import { type ScriptedReply, scriptedModel } from "../../src/testing/index.ts";
import { type ModelServer, startModelServer } from "../support/model-server.ts";
import {
  CHILD_MARK,
  firstUserText,
  registryWith,
  rootTree,
  runTree,
  tempWorkspace,
  toolResultsIn,
  wireSystem,
} from "./support/subagent-harness.ts";

let server: ModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const pinned = {
  name: "pinned",
  description: "Has its own model.",
  prompt: "You are pinned.",
  model: "haiku",
};

test("the call's model beats the definition's, which beats the parent's; inherit means the parent's", async () => {
  const workspace = await tempWorkspace();
  const calls = [
    { description: "Call model wins", prompt: "A", subagent_type: "pinned", model: "opus" },
    { description: "Definition model wins", prompt: "B", subagent_type: "pinned" },
    { description: "Parent model", prompt: "C", subagent_type: "general-purpose" },
    { description: "Inherit is parent", prompt: "D", subagent_type: "pinned", model: "inherit" },
  ];
  const reply =
    (label: string) =>
    (request: ModelRequest): ScriptedReply => {
      if (request.system.includes(CHILD_MARK))
        return { text: `${firstUserText(request.messages)} on ${label}` };
      return toolResultsIn(request.messages).length === 0
        ? { toolCalls: calls.map((args) => ({ name: "task", args })) }
        : { text: "done" };
    };
  const parent = scriptedModel(reply("parent"), { id: "scripted:parent" });
  const built: Record<string, Model> = {};
  const factory = (id: string) => {
    built[id] ??= scriptedModel(reply(id), { id: `scripted:${id}` });
    return built[id]!;
  };
  const { config } = rootTree({
    workspace,
    model: parent,
    registry: registryWith(pinned),
    createModel: factory,
  });

  const run = await runTree(config, "ROOT");
  expect(run.outcome.status).toBe("completed");
  expect(Object.keys(built).sort()).toEqual(["haiku", "opus"]);
  const results = toolResultsIn(parent.requests.at(-1)!.messages).map((r) => r.content);
  expect(results[0]).toContain("A on opus");
  expect(results[0]).toContain("model: scripted:opus");
  expect(results[1]).toContain("B on haiku");
  expect(results[1]).toContain("model: scripted:haiku");
  expect(results[2]).toContain("C on parent");
  expect(results[2]).toContain("model: scripted:parent");
  expect(results[3]).toContain("D on parent");
  const starts = run.of("agent_start").filter((e) => e.agentPath.length === 2);
  expect(starts.map((e) => [e.description, e.model]).sort()).toEqual(
    [
      ["Call model wins", "scripted:opus"],
      ["Definition model wins", "scripted:haiku"],
      ["Inherit is parent", "scripted:parent"],
      ["Parent model", "scripted:parent"],
    ].sort(),
  );
});

test("a definition's model alias resolves through the config's aliases to the real provider", async () => {
  const workspace = await tempWorkspace();
  let rootCalls = 0;
  server = await startModelServer((request) => {
    if (wireSystem(request.body).includes(CHILD_MARK)) return { text: "fast answer" };
    rootCalls++;
    return rootCalls === 1
      ? {
          toolCalls: [
            { name: "task", args: { description: "Quick look", prompt: "look", subagent_type: "quick" } },
          ],
        }
      : { text: "done" };
  });
  const settings = {
    anthropic: { apiKey: "test-key", baseUrl: server.anthropicBaseUrl },
    aliases: { fast: "anthropic:claude-haiku-4-5" },
    retry: { maxRetries: 0 },
  };
  const factory = (id: string) => createModel(id, settings, {});
  const registry = registryWith({ name: "quick", description: "Fast.", prompt: "Be quick.", model: "fast" });
  const { config } = rootTree({
    workspace,
    model: factory("anthropic:claude-sonnet-4-5"),
    registry,
    createModel: factory,
  });

  const run = await runTree(config, "ROOT");
  expect(run.outcome.status).toBe("completed");
  expect(server.requests.map((r) => r.body.model)).toEqual([
    "claude-sonnet-4-5",
    "claude-haiku-4-5",
    "claude-sonnet-4-5",
  ]);
  const result = run.of("tool_end").find((e) => e.name === "task");
  expect(result?.preview).toContain("fast answer");
  const [wrapped] = toolResultsIn(run.session.messages);
  expect(wrapped?.content).toContain("model: anthropic:claude-haiku-4-5");
});

test("a model that cannot be built is a clear error naming it, and no child starts", async () => {
  const workspace = await tempWorkspace();
  const parent = scriptedModel((request) =>
    toolResultsIn(request.messages).length === 0
      ? {
          toolCalls: [
            { name: "task", args: { description: "Bad model", prompt: "x", model: "nowhere:model" } },
          ],
        }
      : { text: "done" },
  );
  const factory = (id: string) => createModel(id, {}, {});
  const { config, runtime } = rootTree({ workspace, model: parent, createModel: factory });

  await runTree(config, "ROOT");
  const [result] = toolResultsIn(parent.requests.at(-1)!.messages);
  expect(result?.isError).toBe(true);
  expect(result?.content).toMatch(/^Cannot use model "nowhere:model": /);
  expect(runtime.started).toBe(0);
});
