import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { expect, it } from "vitest";
import type { AgentConfig } from "../../src/agent/config.ts";
import type { Hooks } from "../../src/agent/hooks.ts";
import { DEFAULT_RULES } from "../../src/permissions/defaults.ts";
import { childSystemPrompt } from "../../src/subagents/child/child-config.ts";
import { attachSubagents } from "../../src/subagents/tree/with-subagents.ts";
import { scriptedModel } from "../../src/testing/scripted-model.ts";
import { builtinTools } from "../../src/tools/builtin.ts";
import { nodeOperations } from "../../src/tools/node-operations.ts";
import { CHILD_MARK, ROOT_PROMPT, registryWith, runTree, tempWorkspace } from "./support/subagent-harness.ts";

const SECTION = "# Instructions\n\nPROJECT-INSTRUCTIONS-MARK";

it("a child's system prompt ends with the project's instructions; without any it is as before", () => {
  const definition = { prompt: "Do the thing.", withheld: ["the MCP server x"] };
  const without = childSystemPrompt(definition, "/w");
  expect(childSystemPrompt(definition, "/w", "")).toBe(without);
  expect(childSystemPrompt(definition, "/w", SECTION)).toBe(`${without}\n\n${SECTION}`);
});

it("local children get the instructions and the nested-file hook in their workspace; a definition with projectInstructions: false gets neither", async () => {
  const workspace = await tempWorkspace();
  await mkdir(join(workspace, "sub"));
  await writeFile(join(workspace, "sub", "a.txt"), "a");
  const hookedIn: string[] = [];
  const hooks = (where: string): Hooks => {
    hookedIn.push(where);
    return {
      afterToolCall: ({ result }) => ({ ...result, content: `${result.content}\nNESTED-HOOK-RAN` }),
    };
  };
  const model = scriptedModel((request, call) => {
    const isChild = request.system.includes(CHILD_MARK);
    if (isChild && request.messages.length === 1 && request.system.includes("Lean agent."))
      return { text: "lean done" };
    if (isChild && request.messages.length === 1)
      return { toolCalls: [{ id: `r${call}`, name: "read", args: { path: "sub/a.txt" } }] };
    if (isChild) return { text: "child done" };
    if (request.messages.length === 1)
      return {
        toolCalls: [
          { id: "t1", name: "task", args: { description: "General work", prompt: "Read sub/a.txt." } },
          {
            id: "t2",
            name: "task",
            args: { description: "Lean work", prompt: "Say done.", subagent_type: "lean" },
          },
        ],
      };
    return { text: "root done" };
  });
  const root: AgentConfig = {
    name: "main",
    model,
    systemPrompt: `${ROOT_PROMPT}\n\n${SECTION}`,
    tools: builtinTools(),
    workspace,
    ops: nodeOperations,
    agentPath: ["main"],
    depth: 0,
  };
  const registry = registryWith({
    name: "lean",
    description: "A lean agent.",
    prompt: "Lean agent.",
    projectInstructions: false,
  });
  const { config } = attachSubagents(root, {
    registry,
    createModel: () => model,
    baseTools: () => builtinTools(),
    permission: { rules: DEFAULT_RULES, mode: "bypass" },
    instructions: { section: SECTION, hooks },
  });
  const run = await runTree(config, "Delegate.");
  expect(run.outcome.status).toBe("completed");

  const firstCalls = model.requests.filter((r) => r.system.includes(CHILD_MARK) && r.messages.length === 1);
  const general = firstCalls.find((r) => !r.system.includes("Lean agent."));
  const lean = firstCalls.find((r) => r.system.includes("Lean agent."));
  expect(general?.system.endsWith(SECTION)).toBe(true);
  expect(lean?.system).not.toContain("PROJECT-INSTRUCTIONS-MARK");
  // Only the general-purpose child got the hook, in its own workspace, and it ran on its read.
  expect(hookedIn).toEqual([workspace]);
  const childSecond = model.requests.find((r) => r.system.includes(CHILD_MARK) && r.messages.length === 3);
  expect(JSON.stringify(childSecond?.messages)).toContain("NESTED-HOOK-RAN");
});
