import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadAgentDefinitions } from "../../src/agents/discover.ts";
import { effectiveAccess } from "../../src/agents/effective-access.ts";
import { evaluate } from "../../src/permissions/evaluate.ts";
import { summarize } from "./fixtures.ts";

/** Issue 9, "Also load what is ignored today": opencode.json agents, Codex roles, nested Codex files. */

let root: string;
let project: string;
let home: string;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "agentry-config-agents-"));
  project = join(root, "project");
  home = join(root, "home");
  await mkdir(project, { recursive: true });
  await mkdir(home, { recursive: true });
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true, maxRetries: 3 });
});

async function write(path: string, text: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, text);
}

async function load() {
  const loaded = await loadAgentDefinitions({ projectDir: project, homeDir: home, includeBuiltins: false });
  const byName = new Map(loaded.definitions.map((d) => [d.name, d]));
  return { ...loaded, byName, summary: summarize(loaded.diagnostics) };
}

describe("agent entries of opencode.json", () => {
  it("loads them with their prompt file, tools map and permission", async () => {
    await write(
      join(project, "opencode.json"),
      JSON.stringify({
        $schema: "https://opencode.ai/config.json",
        model: "anthropic/claude-sonnet-4-5",
        agent: {
          reviewer: {
            description: "Reviews code",
            mode: "subagent",
            prompt: "{file:./prompts/reviewer.md}",
            tools: { write: false, edit: false },
            permission: { bash: { "*": "deny", "git diff*": "allow" } },
          },
          inline: { description: "Has its prompt inline", prompt: "Be brief." },
        },
      }),
    );
    await write(join(project, "prompts/reviewer.md"), "You review code.\n");
    const { byName, diagnostics } = await load();
    expect(diagnostics).toEqual([]);
    const reviewer = byName.get("reviewer");
    expect(reviewer).toMatchObject({
      description: "Reviews code",
      mode: "subagent",
      prompt: "You review code.",
      disallowedTools: ["write", "edit"],
      source: { kind: "project", format: "opencode", path: join(project, "opencode.json") },
    });
    expect(byName.get("inline")?.prompt).toBe("Be brief.");
    expect(byName.get("inline")?.mode).toBe("all");
  });

  it("applies the file's own permission and tools to its agents first", async () => {
    await write(
      join(project, "opencode.jsonc"),
      [
        "{",
        "  // everything in this project: no edits, no web",
        '  "permission": { "edit": "deny" },',
        '  "tools": { "bash": false, },',
        '  "agent": {',
        '    "docs": { "description": "Writes docs", "prompt": "Write docs.", "permission": { "bash": "ask" } },',
        "  },",
        "}",
      ].join("\n"),
    );
    const { byName, diagnostics } = await load();
    expect(diagnostics).toEqual([]);
    const access = effectiveAccess(byName.get("docs") ?? expect.fail("docs not loaded"));
    expect(access.readOnly).toBe(true);
    expect(access.deniedTools).toEqual(expect.arrayContaining(["bash", "write", "edit"]));
  });

  it("skips entries that tune OpenCode's own agents, and disabled ones, without an error", async () => {
    await write(
      join(project, ".opencode/opencode.json"),
      JSON.stringify({ agent: { build: { model: "x/y" }, old: { description: "d", disable: "true" } } }),
    );
    const { definitions, diagnostics, summary } = await load();
    expect(definitions).toEqual([]);
    expect(diagnostics.every((d) => d.severity === "info")).toBe(true);
    expect(summary).toEqual([
      `info: agent "build": configures OpenCode's built-in agent build, not an agent of its own → skipped the file`,
      `info: agent "old": the agent is disabled (disable: true) → skipped the file`,
    ]);
  });

  it("fails a file that is not JSON, or holds a key twice, naming the line", async () => {
    await write(join(project, "opencode.json"), '{ "agent": { "a": { "description": "d" }, }, oops }');
    await write(
      join(home, ".config/opencode/opencode.json"),
      '{\n  "agent": {\n    "b": {\n      "description": "d",\n      "permission": { "edit": "deny", "edit": "allow" }\n    }\n  }\n}',
    );
    const { definitions, diagnostics } = await load();
    expect(definitions).toEqual([]);
    expect(diagnostics).toEqual([
      expect.objectContaining({ severity: "error", message: expect.stringMatching(/^not valid JSON/) }),
      expect.objectContaining({
        severity: "error",
        file: join(home, ".config/opencode/opencode.json"),
        line: 5,
        message: "a key appears twice in one object; write it once",
      }),
    ]);
  });

  it("does not read a prompt file outside the project", async () => {
    await write(join(root, "secret.txt"), "private key");
    await write(
      join(project, "opencode.json"),
      JSON.stringify({ agent: { leak: { description: "d", prompt: "{file:../secret.txt}" } } }),
    );
    const { byName, summary } = await load();
    expect(byName.get("leak")?.prompt).toBe("");
    expect(summary).toContain(
      `warning: the prompt file ${join(project, "../secret.txt")} is outside ${project} → did not read it`,
    );
  });

  it("fails an agent whose restriction cannot be read, and still loads the others", async () => {
    await write(
      join(project, "opencode.json"),
      JSON.stringify({
        agent: {
          bad: { description: "d", permissions: "sometimes" },
          good: { description: "d", tools: { "*": false, read: true } },
        },
      }),
    );
    const { byName, diagnostics } = await load();
    expect([...byName.keys()]).toEqual(["good"]);
    expect(byName.get("good")?.tools).toEqual(["read"]);
    expect(diagnostics.filter((d) => d.severity === "error")).toEqual([
      expect.objectContaining({
        message: expect.stringMatching(/^agent "bad": permissions: must be/),
        line: 1,
      }),
    ]);
  });
});

describe("roles of .codex/config.toml", () => {
  it("loads a role from its config_file under the role's name, once", async () => {
    await write(
      join(project, ".codex/config.toml"),
      [
        'model = "gpt-5.5"',
        "[agents]",
        "max_threads = 4",
        "[agents.reviewer]",
        'description = "Reviews diffs; read-only."',
        'config_file = "agents/reviewer.toml"',
        'nickname_candidates = ["Ada"]',
        "[agents.helper]",
        'description = "Helps with anything."',
      ].join("\n"),
    );
    await write(
      join(project, ".codex/agents/reviewer.toml"),
      'name = "code-reviewer"\ndescription = "old"\ndeveloper_instructions = "Review the diff."\nsandbox_mode = "read-only"\n',
    );
    const { byName, summary } = await load();
    expect([...byName.keys()].sort()).toEqual(["helper", "reviewer"]);
    expect(byName.get("reviewer")).toMatchObject({
      description: "Reviews diffs; read-only.",
      prompt: "Review the diff.",
      source: { kind: "project", format: "codex", path: join(project, ".codex/agents/reviewer.toml") },
    });
    expect(effectiveAccess(byName.get("reviewer") ?? expect.fail("no reviewer")).readOnly).toBe(true);
    expect(byName.get("helper")).toMatchObject({ description: "Helps with anything.", prompt: "" });
    expect(summary.filter((s) => !s.startsWith("info:"))).toEqual([
      `warning: role "helper" of ${join(project, ".codex/config.toml")}: empty prompt → the agent runs with only the harness preamble`,
    ]);
  });

  it("fails a role with a key Codex does not have, or a missing config_file", async () => {
    await write(
      join(project, ".codex/config.toml"),
      '[agents.a]\ndescription = "d"\nsandbox = "none"\n[agents.b]\ndescription = "d"\nconfig_file = "nowhere.toml"\n',
    );
    const { definitions, diagnostics } = await load();
    expect(definitions).toEqual([]);
    expect(diagnostics.map((d) => [d.severity, d.line, d.message.split(":")[0]])).toEqual([
      ["error", 1, 'role "a"'],
      ["error", 4, 'role "b"'],
    ]);
  });
  it("fails a role whose description is blank", async () => {
    await write(join(project, ".codex/config.toml"), '[agents.helper]\ndescription = "   "\n');
    const { definitions, summary } = await load();
    expect(definitions).toEqual([]);
    expect(summary).toEqual([
      `error: role "helper" of ${join(project, ".codex/config.toml")}: no description: the parent agent picks subagents by their description → skipped the file`,
    ]);
  });
});

describe(".codex/agents sub-folders", () => {
  it("loads TOML role files in sub-folders", async () => {
    await write(
      join(home, ".codex/agents/team/auditor.toml"),
      'name = "auditor"\ndescription = "Audits"\ndeveloper_instructions = "Audit."\n',
    );
    const { byName, diagnostics } = await load();
    expect(byName.get("auditor")?.source).toMatchObject({ kind: "user", format: "codex" });
    expect(diagnostics).toEqual([]);
  });
});

describe("an opencode.json agent permission that tries to lift the file's deny", () => {
  it("follows OpenCode: the agent's own entry for a permission replaces the file's", async () => {
    await write(
      join(project, "opencode.json"),
      JSON.stringify({
        permission: { edit: "deny", bash: "deny" },
        agent: { docs: { description: "d", permission: { edit: { "*": "deny", "docs/**": "allow" } } } },
      }),
    );
    const { byName } = await load();
    const rules = effectiveAccess(byName.get("docs") ?? expect.fail("no docs")).rules;
    expect(evaluate(rules, "edit", "docs/a.md")).toBe("allow");
    expect(evaluate(rules, "edit", "src/a.ts")).toBe("deny");
    expect(evaluate(rules, "bash", "ls")).toBe("deny");
  });
});
