import { describe, expect, it } from "vitest";
import { AgentDefinitionError, AgentRegistry, parseAgentsJson } from "../../src/agents/agent-registry.ts";
import { builtinAgents } from "../../src/agents/builtin-agents.ts";
import type { AgentDefinition } from "../../src/agents/definition.ts";

const fileAgent: AgentDefinition = {
  name: "reviewer",
  description: "from a file",
  prompt: "p",
  mode: "subagent",
  source: { kind: "project", format: "claude", path: "/p/.claude/agents/reviewer.md" },
};

describe("AgentRegistry", () => {
  it("starts from loaded definitions and their diagnostics", () => {
    const diagnostics = [{ severity: "warning" as const, file: "/f", message: "m", action: "a" }];
    const registry = new AgentRegistry({ definitions: [...builtinAgents(), fileAgent], diagnostics });
    expect(registry.get("reviewer")).toBe(fileAgent);
    expect(registry.diagnostics).toEqual(diagnostics);
  });

  it("lets programmatic definitions override files, maps their tool names and reports unknown ones", () => {
    const registry = new AgentRegistry({ definitions: [fileAgent] });
    const registered = registry.register({
      name: "reviewer",
      description: "programmatic",
      prompt: "Review.",
      tools: ["Read", "Grep", "WebSearch"],
      model: "inherit",
    });
    expect(registered).toEqual({
      name: "reviewer",
      description: "programmatic",
      prompt: "Review.",
      tools: ["read", "grep"],
      mode: "subagent",
      source: { kind: "programmatic", format: "agentry" },
    });
    expect(registry.get("reviewer")).toBe(registered);
    expect(registry.diagnostics.map((d) => `${d.severity}: ${d.message} → ${d.action}`)).toEqual([
      'warning: agent "reviewer": unknown tool WebSearch → dropped unknown tool WebSearch',
      'info: agent "reviewer" replaces the project one from /p/.claude/agents/reviewer.md → kept the programmatic definition',
    ]);
  });

  it("reads --agents restrictions under any spelling, and throws for one it cannot apply", () => {
    const registry = AgentRegistry.fromJson(
      JSON.stringify({
        reader: { description: "d", prompt: "p", allowedTools: "Read, Grep" },
        careful: {
          description: "d",
          prompt: "p",
          "disallowed-tools": ["Bash"],
          permissions: { edit: "deny" },
        },
      }),
    );
    expect(registry.get("reader")?.tools).toEqual(["read", "grep"]);
    expect(registry.get("careful")).toMatchObject({
      disallowedTools: ["bash"],
      permission: { edit: "deny" },
    });
    const json = (body: Record<string, unknown>) =>
      JSON.stringify({ x: { description: "d", prompt: "p", ...body } });
    expect(() => AgentRegistry.fromJson(json({ deniedCommands: ["rm"] }))).toThrow(
      /--agents: agent "x": deniedCommands looks like a limit/,
    );
    expect(() => AgentRegistry.fromJson(json({ tools: ["Read"], allowedTools: ["Bash"] }))).toThrow(
      /allowedTools and tools both set tools/,
    );
    expect(() => AgentRegistry.fromJson(json({ sandbox_mode: "read-only" }))).toThrow(
      /sandbox_mode looks like a limit/,
    );
    const lenient = AgentRegistry.fromJson(json({ favouriteColor: "blue" }));
    expect(lenient.diagnostics.map((d) => d.message)).toEqual(['agent "x": unknown key favouriteColor']);
  });

  it("throws a clear error for an invalid programmatic definition", () => {
    const registry = new AgentRegistry();
    expect(() => registry.register({ name: "../escape", description: "d", prompt: "p" })).toThrow(
      /programmatic: invalid agent "\.\.\/escape": name: letters, digits/,
    );
    expect(() => registry.register({ name: "ok", description: "", prompt: "p" })).toThrow(
      AgentDefinitionError,
    );
  });

  it("gets by exact name, then by a unique case-insensitive match", () => {
    const registry = new AgentRegistry({ definitions: builtinAgents() });
    expect(registry.get("explore")?.name).toBe("explore");
    expect(registry.get("Explore")?.name).toBe("explore");
    expect(registry.get("nope")).toBeUndefined();
  });

  it("lists by mode: `all` agents count as subagents and as primaries", () => {
    const registry = new AgentRegistry();
    registry.register({ name: "sub", description: "d", prompt: "p", mode: "subagent" });
    registry.register({ name: "prim", description: "d", prompt: "p", mode: "primary" });
    registry.register({ name: "both", description: "d", prompt: "p", mode: "all", hidden: true });
    expect(registry.list().map((d) => d.name)).toEqual(["both", "prim", "sub"]);
    expect(registry.list({ mode: "subagent" }).map((d) => d.name)).toEqual(["both", "sub"]);
    expect(registry.list({ mode: "primary" }).map((d) => d.name)).toEqual(["both", "prim"]);
  });

  it("lists names case-insensitively, lower case first between names that differ only in case", () => {
    const names = ["Reviewer", "explore", "api-designer", "api2", "APIx", "B", "b", "a.b", "ab", "z9", "z10"];
    const registry = new AgentRegistry();
    for (const name of names) registry.register({ name, description: "d", prompt: "p", mode: "subagent" });
    expect(registry.list().map((d) => d.name)).toEqual([
      "a.b",
      "ab",
      "api-designer",
      "api2",
      "APIx",
      "b",
      "B",
      "explore",
      "Reviewer",
      "z10",
      "z9",
    ]);
  });
});

describe("--agents JSON", () => {
  it("accepts Claude Code's { name: definition } shape on top of loaded agents", () => {
    const json = JSON.stringify({
      "code-reviewer": {
        description: "Reviews code",
        prompt: "Review.",
        tools: "Read, Grep",
        model: "sonnet",
      },
    });
    const registry = AgentRegistry.fromJson(json, { definitions: builtinAgents() });
    expect(registry.get("code-reviewer")).toMatchObject({
      tools: ["read", "grep"],
      model: "sonnet",
      source: { kind: "programmatic" },
    });
    expect(registry.get("explore")?.source.kind).toBe("builtin");
  });

  it("accepts an array of definitions with names", () => {
    const input = parseAgentsJson('[{"name": "a", "description": "d", "prompt": "p"}]');
    expect(input).toEqual([{ name: "a", description: "d", prompt: "p" }]);
  });

  it.each([
    ["{not json", /--agents: not valid JSON/],
    ["42", /--agents: expected an object mapping agent names to definitions/],
    ['{"a": "just a string"}', /--agents: agent a must be an object with description and prompt/],
    ['{"a": {"prompt": "p"}}', /--agents: invalid agent "a": description: /],
    ['{"a": {"description": "d", "prompt": "p", "maxTurns": -1}}', /maxTurns: /],
  ])("rejects %s with a clear error", (json, message) => {
    expect(() => AgentRegistry.fromJson(json)).toThrow(message);
  });
});
