import { expect, test } from "vitest";
import { z } from "zod";
import type { AgentDefinition } from "../../src/agents/definition.ts";
import { DEFAULT_RULES } from "../../src/permissions/defaults.ts";
import type { Ruleset } from "../../src/permissions/types.ts";
import { childTools } from "../../src/subagents/child/child-config.ts";
import { builtinTools } from "../../src/tools/builtin.ts";
import { type AnyTool, defineTool } from "../../src/tools/tool.ts";

const fake = (name: string): AnyTool =>
  defineTool({ name, description: name, schema: z.object({}), execute: async () => name });

const base = builtinTools();
// The parent has an extra tool (say, from MCP) and its own task tool.
const parentTools = [...base.filter((t) => t.name !== "write"), fake("mcp__docs__search"), fake("task")];

const definition = (extra: Partial<AgentDefinition>): AgentDefinition => ({
  name: "x",
  description: "x",
  prompt: "x",
  mode: "subagent",
  source: { kind: "programmatic", format: "agentry" },
  ...extra,
});

const names = (set: { tools: AnyTool[] }) => set.tools.map((t) => t.name);
const pick = (extra: Partial<AgentDefinition>, options: { rules?: Ruleset; mayNest?: boolean } = {}) =>
  childTools({
    definition: definition(extra),
    parentTools,
    baseTools: base,
    rules: options.rules ?? DEFAULT_RULES,
    mayNest: options.mayNest ?? true,
  });

test("no tools list: the parent's tools, its own spawn tool replaced by the child's", () => {
  const set = pick({});
  expect(names(set)).toEqual(["bash", "read", "edit", "grep", "glob", "list", "mcp__docs__search"]);
  expect(set.spawn).toBe(true);
  expect(pick({}, { mayNest: false }).spawn).toBe(false);
});

test("an empty tools list: no tools at all", () => {
  const set = pick({ tools: [] });
  expect(names(set)).toEqual([]);
  expect(set.spawn).toBe(false);
});

test("a tools list picks from the base tools (and the parent's), in their order", () => {
  expect(names(pick({ tools: ["list", "write", "read", "mcp__docs__search"] }))).toEqual([
    "read",
    "write",
    "list",
    "mcp__docs__search",
  ]);
  expect(pick({ tools: ["read", "task"] }).spawn).toBe(true);
  expect(pick({ tools: ["read", "task"] }, { mayNest: false }).spawn).toBe(false);
});

test("disallowedTools are removed, globs included", () => {
  expect(names(pick({ disallowedTools: ["bash", "mcp__*"] }))).toEqual([
    "read",
    "edit",
    "grep",
    "glob",
    "list",
  ]);
  expect(pick({ disallowedTools: ["task"] }).spawn).toBe(false);
});

test("tools whose rules deny everything are hidden", () => {
  const rules: Ruleset = [
    ...DEFAULT_RULES,
    { permission: "edit", pattern: "*", action: "deny" },
    { permission: "task", pattern: "*", action: "deny" },
  ];
  const set = pick({ tools: ["read", "write", "edit", "bash", "task"] }, { rules });
  expect(names(set)).toEqual(["bash", "read"]);
  expect(set.spawn).toBe(false);
});

test("a tools list takes * patterns, and each server named in mcpServers adds that server's tools", () => {
  const mcp = [
    fake("mcp__docs__search"),
    fake("mcp__docs__fetch"),
    fake("mcp__notes__get"),
    fake("mcp__other__x"),
  ];
  const withMcp = (extra: Partial<AgentDefinition>) =>
    names(
      childTools({
        definition: definition(extra),
        parentTools: [...base, ...mcp],
        baseTools: [...base, ...mcp],
        rules: DEFAULT_RULES,
        mayNest: false,
      }),
    );
  expect(withMcp({ tools: ["read", "mcp__docs__*"] })).toEqual([
    "read",
    "mcp__docs__search",
    "mcp__docs__fetch",
  ]);
  expect(withMcp({ tools: ["read"], mcpServers: [{ name: "notes" }] })).toEqual(["read", "mcp__notes__get"]);
  expect(withMcp({ tools: ["mcp__*"], disallowedTools: ["mcp__other__*"] })).toEqual([
    "mcp__docs__search",
    "mcp__docs__fetch",
    "mcp__notes__get",
  ]);
});
