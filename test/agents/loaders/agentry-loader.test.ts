import { describe, expect, it } from "vitest";
import { loadAgentryAgent } from "../../../src/agents/loaders/agentry.ts";
import { bashPermissionPatterns } from "../../../src/permissions/bash-command.ts";
import { evaluateRequest } from "../../../src/permissions/evaluate.ts";
import { rulesetFromConfig } from "../../../src/permissions/ruleset-from-config.ts";
import { readFixture, summarize } from "../fixtures.ts";

describe("agentry and AgentScope agent files", () => {
  it("reads every agentry key, with maxIters as maxTurns", () => {
    const { text, path } = readFixture("agentry/researcher.md");
    const { definition, diagnostics, promptFile } = loadAgentryAgent(text, path);
    expect(diagnostics).toEqual([]);
    expect(promptFile).toBeUndefined();
    expect(definition).toEqual({
      name: "researcher",
      description: "Researches a topic in its own workspace.",
      prompt: "Research carefully.",
      tools: ["read", "grep", "glob", "bash"],
      permission: { bash: { "*": "deny", "rg *": "allow" } },
      maxTurns: 12,
      mode: "subagent",
      fork: "all",
      background: true,
      workspace: { mode: "isolated" },
      mcpServers: [{ name: "github" }, { name: "docs", config: { command: "docs-server" } }],
      source: { kind: "project", format: "agentry", path },
    });
  });

  it("asks for the workspace folder's AGENTS.md as the prompt, relative to the project", () => {
    const { text, path } = readFixture("agentscope/analyst.md");
    const result = loadAgentryAgent(text, path, { format: "agentscope", baseDir: "/project" });
    expect(result.promptFile).toBe("/project/subagents/research-desk/AGENTS.md");
    expect(result.definition).toMatchObject({
      name: "analyst",
      maxTurns: 8,
      model: "openai:gpt-5",
      workspace: { mode: "isolated", path: "subagents/research-desk" },
      source: { format: "agentscope" },
    });
    // The body is empty, but the prompt comes from AGENTS.md: no "empty prompt" warning here.
    expect(summarize(result.diagnostics)).toEqual([]);
  });

  it("accepts `steps` and a workspace given as a bare mode", () => {
    const text = "---\ndescription: d\nsteps: 3\nworkspace: worktree\n---\nGo.";
    const { definition } = loadAgentryAgent(text, "/p/.agentry/agents/w.md");
    expect(definition).toMatchObject({ name: "w", maxTurns: 3, workspace: { mode: "worktree" } });
  });

  it("fails a file with an unknown workspace mode rather than sharing the parent's directory", () => {
    const text = "---\ndescription: d\nworkspace: { mode: sandbox }\n---\nGo.";
    const { definition, diagnostics } = loadAgentryAgent(text, "/p/.agentry/agents/w.md");
    expect(definition).toBeUndefined();
    expect(diagnostics).toEqual([
      expect.objectContaining({
        severity: "error",
        line: 3,
        message: "workspace.mode must be one of shared, isolated, worktree",
      }),
    ]);
  });

  it("accepts a flat permission rule list", () => {
    const text = [
      "---",
      "description: d",
      "permission:",
      "  - { permission: bash, pattern: 'rm *', action: deny }",
      "---",
      "Go.",
    ].join("\n");
    const { definition } = loadAgentryAgent(text, "/p/.agentry/agents/r.md");
    expect(definition?.permission).toEqual([{ permission: "bash", pattern: "rm *", action: "deny" }]);
  });

  it("accepts Claude's allow/deny lists and a bare action as permission", () => {
    const lists = "---\ndescription: d\nreadOnlyBash: true\npermission:\n  deny: [Edit]\n---\nGo.";
    expect(loadAgentryAgent(lists, "/p/.agentry/agents/l.md").definition).toMatchObject({
      permission: { deny: ["Edit"] },
      readOnlyBash: true,
    });
    const bare = loadAgentryAgent(
      "---\ndescription: d\npermission: ask\n---\nGo.",
      "/p/.agentry/agents/b.md",
    );
    expect(bare.definition?.permission).toBe("ask");
  });

  it("lets tool patterns limit the file's own permission, and keeps the file's denies", () => {
    const text = [
      "---",
      "description: d",
      "permission:",
      "  bash:",
      "    git push *: deny",
      "tools: Read, Bash(git *)",
      "---",
      "Go.",
    ].join("\n");
    const { definition } = loadAgentryAgent(text, "/p/.agentry/agents/g.md");
    const rules = rulesetFromConfig(definition?.permission);
    const bash = (command: string) => evaluateRequest(rules, "bash", bashPermissionPatterns(command)).action;
    expect(bash("git status")).toBe("allow");
    expect(bash("git push origin main")).toBe("deny");
    expect(bash("rm -rf src")).toBe("deny");
  });

  it("warns about an empty prompt without a workspace folder to take it from", () => {
    const { definition, diagnostics } = loadAgentryAgent(
      "---\ndescription: d\n---\n",
      "/p/.agentry/agents/e.md",
    );
    expect(definition?.prompt).toBe("");
    expect(summarize(diagnostics)).toEqual([
      "warning: empty prompt → the agent runs with only the harness preamble",
    ]);
  });
});
