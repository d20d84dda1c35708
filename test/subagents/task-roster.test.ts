import { expect, test } from "vitest";
import type { ModelRequest } from "../../src/model/model.ts";
import { DEFAULT_RULES } from "../../src/permissions/defaults.ts";
import { type ScriptedReply, scriptedModel } from "../../src/testing/index.ts";
import { registryWith, rootTree, runTree, tempWorkspace, toolResultsIn } from "./support/subagent-harness.ts";

const extra = [
  { name: "secret", description: "Hidden helper.", prompt: "You are secret.", hidden: true },
  { name: "boss", description: "A primary agent.", prompt: "You lead.", mode: "primary" as const },
  {
    name: "both",
    description: "Usable either way.\nSecond line.",
    prompt: "You do both.",
    mode: "all" as const,
    tools: ["read"],
  },
];
const rules = [...DEFAULT_RULES, { permission: "task", pattern: "review", action: "deny" as const }];

test("the description lists the agents this caller may spawn, and the usage rules", () => {
  const { config } = rootTree({
    workspace: "/tmp",
    model: scriptedModel([]),
    registry: registryWith(...extra),
    rules,
  });
  const description = config.tools.find((tool) => tool.name === "task")!.description;
  const roster = description.split("\n").filter((line) => line.startsWith("- ") && /^- [\w.-]+: /.test(line));
  expect(roster.map((line) => line.slice(2, line.indexOf(":")))).toEqual([
    "both",
    "explore",
    "general-purpose",
    "plan",
  ]);
  expect(description).toContain("- both: Usable either way. Second line. (tools: read)");
  expect(description).toContain("- explore: Fast read-only codebase explorer");
  expect(description).toMatch(/Launch independent children in one message .* in parallel/);
  expect(description).toContain("Each child starts fresh");
  expect(description).toContain("say what it should return");
  expect(description).toContain("Do not use a child to read one file you already know");
  expect(description).toContain("pass its `task_id`");
});

test("no task tool when every agent is denied to the root", () => {
  const denyAll = [...DEFAULT_RULES, { permission: "task", pattern: "*", action: "deny" as const }];
  const { config } = rootTree({ workspace: "/tmp", model: scriptedModel([]), rules: denyAll });
  expect(config.tools.map((tool) => tool.name)).not.toContain("task");
});

test("a hidden agent is callable; primary, denied and unknown agents are refused with the available ones", async () => {
  const workspace = await tempWorkspace();
  const types = ["secret", "boss", "review", "nobody"];
  const model = scriptedModel((request: ModelRequest): ScriptedReply => {
    if (request.system.includes("You are secret.")) return { text: "secret work done" };
    return toolResultsIn(request.messages).length === 0
      ? {
          toolCalls: types.map((type) => ({
            name: "task",
            args: { description: `Try ${type}`, prompt: "x", subagent_type: type },
          })),
        }
      : { text: "done" };
  });
  const { config, runtime } = rootTree({ workspace, model, registry: registryWith(...extra), rules });

  await runTree(config, "ROOT");
  const [secret, boss, review, nobody] = toolResultsIn(model.requests.at(-1)!.messages);
  expect(secret).toMatchObject({ isError: false });
  expect(secret?.content).toContain("secret work done");
  const available = "Available: both, explore, general-purpose, plan.";
  expect(boss?.content).toBe(`Agent "boss" is a primary agent and cannot run as a subagent. ${available}`);
  expect(review?.content).toBe(
    `Your permission rules do not allow starting subagent "review" (task:'review' is denied). ${available}`,
  );
  expect(nobody?.content).toBe(`Unknown subagent_type "nobody". ${available}`);
  expect(runtime.started).toBe(1);
});
