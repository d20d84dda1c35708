import { describe, expect, it } from "vitest";
import { loadCodexAgent } from "../../../src/agents/loaders/codex.ts";
import { loadAgentFile } from "../../../src/agents/loaders/load-agent-file.ts";
import { bashPermissionPatterns } from "../../../src/permissions/bash-command.ts";
import { evaluate, evaluateRequest } from "../../../src/permissions/evaluate.ts";
import { rulesetFromConfig } from "../../../src/permissions/ruleset-from-config.ts";
import { readFixture, summarize } from "../fixtures.ts";

describe("Codex agent roles (.toml)", () => {
  it("reads name, description, developer_instructions, model and mcp_servers", () => {
    const { text, path } = readFixture("codex/explorer.toml");
    const { definition, diagnostics } = loadCodexAgent(text, path);
    expect(definition).toMatchObject({
      name: "code_explorer",
      description: "Read-only tracing of call paths and data flow.",
      prompt: "Trace the real call path and cite files.\nDo not modify files.",
      model: "openai:gpt-5-codex",
      mode: "subagent",
      mcpServers: [{ name: "docs", config: { command: "docs-server" } }],
      source: { kind: "project", format: "codex", path },
    });
    expect(summarize(diagnostics)).toContain(
      "info: model_reasoning_effort: reasoning effort is set per model in config → ignored key model_reasoning_effort",
    );
    expect(diagnostics.find((d) => d.message.startsWith("model_reasoning_effort"))?.line).toBe(4);
  });

  it("turns sandbox_mode read-only into no file edits and read-only bash", () => {
    const { text, path } = readFixture("codex/explorer.toml");
    const { definition } = loadCodexAgent(text, path);
    expect(definition?.disallowedTools).toEqual(["write", "edit"]);
    const rules = rulesetFromConfig(definition?.permission);
    const bash = (command: string) => evaluateRequest(rules, "bash", bashPermissionPatterns(command)).action;
    expect(bash("git log -3")).toBe("allow");
    expect(bash("rm -rf src")).toBe("deny");
    expect(evaluate(rules, "edit", "src/a.ts")).toBe("deny");
  });

  it("says what is wrong with bad TOML in one line, the parser's first, without echoing the file", () => {
    // A key written twice is a TOML error; the parser's message goes on with a frame of the file's
    // lines, which for a 1 MiB one-line file would be the whole file.
    const text =
      'name = "x"\ndescription = "d"\nmodel = "o3"\ndeveloper_instructions = "p"\nmodel = "o4-mini"\n';
    const { definition, diagnostics } = loadAgentFile(text, "/p/.codex/agents/x.toml", { format: "codex" });
    expect(definition).toBeUndefined();
    expect(diagnostics).toEqual([
      {
        severity: "error",
        file: "/p/.codex/agents/x.toml",
        line: 5,
        message: "invalid TOML: Invalid TOML document: trying to redefine an already defined table or value",
        action: "skipped the file",
      },
    ]);
  });

  it("reports bad TOML as an error with its line and skips the file", () => {
    const { text, path } = readFixture("codex/bad.toml");
    const { definition, diagnostics } = loadCodexAgent(text, path);
    expect(definition).toBeUndefined();
    expect(diagnostics).toEqual([
      expect.objectContaining({
        severity: "error",
        file: path,
        line: 2,
        message: expect.stringMatching(/^invalid TOML: /),
        action: "skipped the file",
      }),
    ]);
  });

  it("uses model_provider for bare model names", () => {
    const text =
      'description = "d"\ndeveloper_instructions = "p"\nmodel = "qwen3"\nmodel_provider = "ollama"\n';
    expect(loadCodexAgent(text, "/p/.codex/agents/local.toml").definition?.model).toBe("ollama:qwen3");
  });

  it("names a role file without a name key after its file, and says so", () => {
    const text = 'description = "d"\ndeveloper_instructions = "p"\n';
    const { definition, diagnostics } = loadCodexAgent(text, "/p/.codex/agents/tracer.toml");
    expect(definition?.name).toBe("tracer");
    expect(diagnostics).toEqual([
      expect.objectContaining({
        severity: "info",
        message: "no name key",
        action: 'used the file stem "tracer" as name',
      }),
    ]);
  });

  it("names a role of config.toml by the role, whatever its config_file is called, without a word", () => {
    const text = 'name = "other"\ndeveloper_instructions = "p"\n';
    const role = { name: "code_reviewer", description: "Reviews.", declaredIn: "/p/.codex/config.toml" };
    const { definition, diagnostics } = loadCodexAgent(
      text,
      "/p/.codex/agents/reviewer.toml",
      "project",
      role,
    );
    expect(definition).toMatchObject({ name: "code_reviewer", description: "Reviews.", prompt: "p" });
    expect(diagnostics).toEqual([]);
  });

  it("keeps the role file's description when the role of config.toml gives none", () => {
    const text = 'description = "Reviews diffs."\ndeveloper_instructions = "p"\n';
    const role = { name: "code_reviewer", declaredIn: "/p/.codex/config.toml" };
    const { definition, diagnostics } = loadCodexAgent(text, "/p/.codex/agents/r.toml", "project", role);
    expect(definition).toMatchObject({ name: "code_reviewer", description: "Reviews diffs." });
    expect(diagnostics).toEqual([]);
  });

  it("loads a role whose developer_instructions is not a string without a prompt, saying so at its line", () => {
    const text = 'name = "x"\ndescription = "d"\ndeveloper_instructions = ["Review.", "Be brief."]\n';
    const path = "/p/.codex/agents/x.toml";
    const { definition, diagnostics } = loadAgentFile(text, path, { format: "codex" });
    expect(definition?.prompt).toBe("");
    expect(diagnostics).toEqual([
      {
        severity: "warning",
        file: path,
        line: 3,
        message: "developer_instructions: not a string",
        action: "ignored key developer_instructions",
      },
      {
        severity: "warning",
        file: path,
        message: "empty prompt",
        action: "the agent runs with only the harness preamble",
      },
    ]);
  });

  it.each([
    [
      "sandbox_workspace_write",
      "[sandbox_workspace_write]\nnetwork_access = true\n",
      "it tunes workspace-write, which is not a limit in agentry; the agent's commands follow its permission rules",
    ],
    [
      "model_reasoning_summary",
      'model_reasoning_summary = "concise"\n',
      "reasoning summaries are set per model in config",
    ],
    ["model_verbosity", 'model_verbosity = "low"\n', "verbosity is set per model in config"],
    [
      "nickname_candidates",
      'nickname_candidates = ["Atlas", "Delta"]\n',
      "agentry names children <agent>-<n>",
    ],
    [
      "approval_policy",
      'approval_policy = "never"\n',
      "approvals follow agentry's permission rules and --permission-mode",
    ],
    ["web_search", 'web_search = "live"\n', "agentry has no web search tool"],
    [
      "skills",
      '[[skills.config]]\npath = "/home/me/.codex/skills/deploy/SKILL.md"\nenabled = false\n',
      "agentry has no skills yet",
    ],
  ])("loads a role with %s, noting at its line why agentry does without it", (key, setting, why) => {
    const text = `name = "x"\ndescription = "d"\ndeveloper_instructions = "p"\n${setting}`;
    const path = "/p/.codex/agents/x.toml";
    const { definition, diagnostics } = loadAgentFile(text, path, { format: "codex" });
    expect(definition?.name).toBe("x");
    expect(diagnostics).toEqual([
      { severity: "info", file: path, line: 4, message: `${key}: ${why}`, action: `ignored key ${key}` },
    ]);
  });

  it("reads a bare model as OpenAI's when model_provider is not a name", () => {
    const text = 'description = "d"\ndeveloper_instructions = "p"\nmodel = "gpt-5"\nmodel_provider = 3\n';
    expect(loadCodexAgent(text, "/p/.codex/agents/x.toml").definition?.model).toBe("openai:gpt-5");
  });

  it("loads a role with a [tools] table of web_search and view_image, saying agentry has neither tool", () => {
    const text =
      'name = "x"\ndescription = "d"\ndeveloper_instructions = "p"\n[tools]\nweb_search = true\nview_image = false\n';
    const { definition, diagnostics } = loadCodexAgent(text, "/p/.codex/agents/x.toml");
    expect(definition?.name).toBe("x");
    expect(diagnostics).toEqual([
      expect.objectContaining({
        severity: "info",
        message: "tools: agentry has no web search or image viewer tool",
        action: "ignored key tools",
      }),
    ]);
  });

  it.each([
    ["a switch Codex does not have", "[tools]\nweb_search = true\nshell = true\n"],
    ["not a table", 'tools = "all"\n'],
    ["a switch rather than a table", "tools = true\n"],
  ])("skips a role whose tools is %s", (_, tools) => {
    const text = `description = "d"\ndeveloper_instructions = "p"\n${tools}`;
    const { definition, diagnostics } = loadCodexAgent(text, "/p/.codex/agents/x.toml");
    expect(definition).toBeUndefined();
    expect(diagnostics.at(-1)).toMatchObject({
      severity: "error",
      message: expect.stringContaining(
        "tools in a Codex role is the [tools] table of web_search and view_image",
      ),
      action: "skipped the file",
    });
  });

  it("fails an unknown sandbox_mode rather than running without the sandbox", () => {
    const text = 'description = "d"\ndeveloper_instructions = "p"\nsandbox_mode = "locked"\n';
    const { definition, diagnostics } = loadCodexAgent(text, "/p/.codex/agents/x.toml");
    expect(definition).toBeUndefined();
    expect(diagnostics.at(-1)).toMatchObject({ severity: "error", line: 3, action: "skipped the file" });
  });
});
