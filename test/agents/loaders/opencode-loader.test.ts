import { describe, expect, it } from "vitest";
import { loadAgentFile } from "../../../src/agents/loaders/load-agent-file.ts";
import { loadOpenCodeAgent } from "../../../src/agents/loaders/opencode.ts";
import { rulesetFromConfig } from "../../../src/permissions/ruleset-from-config.ts";
import { readFixture, summarize } from "../fixtures.ts";

function load(name: string) {
  const { text, path } = readFixture(`opencode/${name}`);
  const result = loadOpenCodeAgent(text, path, "user");
  return { ...result, path, summary: summarize(result.diagnostics) };
}

describe("OpenCode agent files", () => {
  it("names the agent after its file and reads OpenCode's keys", () => {
    const { definition, path } = load("reviewer.md");
    expect(definition).toMatchObject({
      name: "reviewer",
      description: "Reviews code for quality and best practices",
      mode: "subagent",
      model: "anthropic:claude-sonnet-4-20250514",
      temperature: 0.1,
      maxTurns: 20,
      hidden: true,
      prompt: "You are in code review mode.",
      source: { kind: "user", format: "opencode", path },
    });
  });

  it("treats a boolean tools map as 'inherit, minus the falses', MCP globs under agentry's names too", () => {
    const { definition, summary } = load("reviewer.md");
    expect(definition).not.toHaveProperty("tools");
    expect(definition?.disallowedTools).toEqual(["write", "edit", "mymcp_*", "mcp__mymcp_*"]);
    expect(summary).toContain(
      "info: tools turns off webfetch, which agentry does not have → ignored webfetch",
    );
  });

  it("keeps the permission map as written, in order", () => {
    const { definition } = load("reviewer.md");
    expect(definition?.permission).toEqual({ bash: { "*": "ask", "git diff*": "allow" }, webfetch: "deny" });
    expect(
      rulesetFromConfig(definition?.permission).map((r) => `${r.permission} ${r.pattern} ${r.action}`),
    ).toEqual(["bash * ask", "bash git diff* allow", "webfetch * deny"]);
  });

  it('grants only the trues when the map says "*": false, and ignores a `name` key', () => {
    const { definition, summary } = load("only-trues.md");
    expect(definition?.name).toBe("only-trues");
    expect(definition?.tools).toEqual(["read", "grep"]);
    expect(definition?.maxTurns).toBe(5);
    expect(definition?.mode).toBe("all");
    expect(summary).toContain(
      'info: OpenCode names an agent after its file or its key under agent → ignored name "something-else"',
    );
    expect(summary).toContain("info: agentry has no webfetch tool → dropped tool webfetch");
  });

  it("skips a disabled agent with an info diagnostic", () => {
    const { definition, summary } = load("disabled.md");
    expect(definition).toBeUndefined();
    expect(summary).toEqual(["info: the agent is disabled (disable: true) → skipped the file"]);
  });

  it("skips a file whose permission it cannot read rather than dropping the restriction", () => {
    const { definition, diagnostics, path } = load("bad-permission.md");
    expect(definition).toBeUndefined();
    expect(diagnostics).toEqual([
      expect.objectContaining({
        severity: "error",
        file: path,
        line: 3,
        message: expect.stringMatching(
          /^permission\.bash: must be "allow", "ask" or "deny".*\(got "sometimes"\)$/,
        ),
        action: "skipped the file",
      }),
    ]);
  });

  it("fails a tools map with non-boolean values", () => {
    const text = "---\ndescription: d\ntools:\n  bash: maybe\n---\nx\n";
    const { definition, diagnostics } = loadOpenCodeAgent(text, "/p/.opencode/agent/odd.md");
    expect(definition).toBeUndefined();
    expect(diagnostics[0]?.message).toContain("tools map values must be true or false");
  });
});

describe("OpenCode agent files that are not loaded", () => {
  const path = "/p/.opencode/agent/helper.md";
  const load = (text: string) => loadAgentFile(text, path, { format: "opencode" });

  it("fails a file without front matter, saying what it needs", () => {
    const { definition, diagnostics } = load("You help.\n");
    expect(definition).toBeUndefined();
    expect(diagnostics).toEqual([
      {
        severity: "error",
        file: path,
        message: "no front matter: an agent file starts with a `---` block holding at least a description",
        action: "skipped the file",
      },
    ]);
  });

  it("stops at a front matter error: the keys after it are not read", () => {
    const text =
      "---\ndescription: d\npermission:\n  bash: deny\npermission:\n  edit: deny\nfoo: bar\n---\nX.\n";
    const { definition, diagnostics } = load(text);
    expect(definition).toBeUndefined();
    expect(summarize(diagnostics)).toEqual([
      "warning: front matter is not valid YAML: Map keys must be unique → read it with the lenient parser",
      "error: key permission appears twice, and permission limits what the agent may do → skipped the file",
    ]);
  });

  it("fails a file without a description", () => {
    const { definition, diagnostics } = load("---\nmode: subagent\n---\nX.\n");
    expect(definition).toBeUndefined();
    expect(summarize(diagnostics)).toEqual([
      "error: no description: the parent agent picks subagents by their description → skipped the file",
    ]);
  });

  it("skips a file that tunes OpenCode's own build agent (no description), as it skips such an entry", () => {
    const text = "---\nmodel: anthropic/claude-haiku-4-5\n---\n";
    const { definition, diagnostics } = loadAgentFile(text, "/p/.opencode/agent/build.md", {
      format: "opencode",
    });
    expect(definition).toBeUndefined();
    expect(summarize(diagnostics)).toEqual([
      "info: configures OpenCode's built-in agent build, not an agent of its own → skipped the file",
    ]);
  });

  it("skips a disabled file at its disable line, without reading its other keys", () => {
    const text = "---\ndescription: d\npermission:\n  bash: sometimes\nfoo: bar\ndisable: true\n---\nX.\n";
    const { definition, diagnostics } = load(text);
    expect(definition).toBeUndefined();
    expect(diagnostics).toEqual([
      {
        severity: "info",
        file: path,
        line: 6,
        message: "the agent is disabled (disable: true)",
        action: "skipped the file",
      },
    ]);
  });
});

describe("the prompt key of an OpenCode agent file loaded on its own", () => {
  it("{file:~/…} is not read, with a warning saying why: loadAgentFile does not know the home folder", () => {
    const path = "/p/.opencode/agent/helper.md";
    const text = "---\ndescription: d\nprompt: '{file:~/prompts/helper.md}'\n---\n";
    const { definition, diagnostics, promptFile } = loadAgentFile(text, path, { format: "opencode" });
    expect(definition?.prompt).toBe("");
    expect(promptFile).toBeUndefined();
    expect(diagnostics).toEqual([
      {
        severity: "warning",
        file: path,
        line: 3,
        message:
          "prompt: ~/prompts/helper.md is in the home folder, which is not known when a file is loaded on its own",
        action: "ignored key prompt",
      },
      expect.objectContaining({ message: "empty prompt" }),
    ]);
  });

  it.each([
    ["relative to the file", "./prompts/helper.md", "/p/.opencode/agent/prompts/helper.md"],
    ["absolute", "/p/prompts/helper.md", "/p/prompts/helper.md"],
  ])("{file:…} %s is handed back to the caller to read", (_, ref, expected) => {
    const text = `---\ndescription: d\nprompt: '{file:${ref}}'\n---\n`;
    const { promptFile } = loadAgentFile(text, "/p/.opencode/agent/helper.md", { format: "opencode" });
    expect(promptFile).toBe(expected);
  });
});

describe("the name key of an OpenCode agent file", () => {
  const path = "/p/.opencode/agent/helper.md";
  it.each([
    ["the file's own name is not reported", "helper", []],
    ["the file's own name with space around it is not reported", '" helper "', []],
    [
      "another name is ignored with an info",
      "other",
      ['info: OpenCode names an agent after its file or its key under agent → ignored name "other"'],
    ],
    ["a name that is not text is ignored", "42", []],
  ])("%s", (_, name, expected) => {
    const { definition, diagnostics } = loadAgentFile(`---\nname: ${name}\ndescription: d\n---\nX.\n`, path, {
      format: "opencode",
    });
    expect(definition?.name).toBe("helper");
    expect(summarize(diagnostics)).toEqual(expected);
  });
});
