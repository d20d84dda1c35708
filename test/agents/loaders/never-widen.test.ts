import { describe, expect, it } from "vitest";
import type { AgentFormat } from "../../../src/agents/definition.ts";
import { effectiveAccess } from "../../../src/agents/effective-access.ts";
import { loadAgentFile } from "../../../src/agents/loaders/load-agent-file.ts";
import { bashPermissionPatterns } from "../../../src/permissions/bash-command.ts";
import { evaluate, evaluateRequest } from "../../../src/permissions/evaluate.ts";
import { summarize } from "../fixtures.ts";

/**
 * Issue 9, "Agent files must never widen": a key that restricts is read, or the file is an error.
 * Each case is a file as people write it; the assertions are on what the agent could then do.
 */

const PATHS: Record<AgentFormat, string> = {
  agentry: "/p/.agentry/agents/a.md",
  agentscope: "/p/subagents/a.md",
  claude: "/p/.claude/agents/a.md",
  opencode: "/p/.opencode/agents/a.md",
  codex: "/p/.codex/agents/a.toml",
};

function load(format: AgentFormat, text: string) {
  const result = loadAgentFile(text, PATHS[format], { format });
  return { ...result, summary: summarize(result.diagnostics) };
}

const md = (...lines: string[]): string => ["---", "description: d", ...lines, "---", "Prompt."].join("\n");

/** What the loaded agent may do: its tools, and its own rules' answer to an edit and to a command. */
function powers(format: AgentFormat, text: string) {
  const { definition, summary } = load(format, text);
  if (definition === undefined) throw new Error(`not loaded:\n${summary.join("\n")}`);
  const access = effectiveAccess(definition);
  return {
    ...access,
    edit: (path = "src/a.ts") => evaluate(access.rules, "edit", path),
    bash: (command: string) => evaluateRequest(access.rules, "bash", bashPermissionPatterns(command)).action,
  };
}

function expectError(format: AgentFormat, text: string, message: RegExp): void {
  const { definition, diagnostics } = load(format, text);
  expect(definition).toBeUndefined();
  expect(diagnostics.filter((d) => d.severity === "error").map((d) => d.message)).toEqual(
    expect.arrayContaining([expect.stringMatching(message)]),
  );
}

describe("restriction keys spelled another harness's way are read", () => {
  it("reads OpenCode's `permissions:` (plural) as permission", () => {
    const agent = powers("opencode", md("permissions:", "  edit: deny", "  bash:", '    "*": deny'));
    expect(agent.readOnly).toBe(true);
    expect(agent.bash("ls")).toBe("deny");
    expect(agent.deniedTools).toEqual(expect.arrayContaining(["bash", "write", "edit"]));
  });

  it("reads OpenCode V2's `permissions` rule array", () => {
    const agent = powers(
      "opencode",
      md(
        "permissions:",
        "  - { permission: edit, pattern: '*', action: deny }",
        "  - { permission: bash, pattern: 'git *', action: allow }",
      ),
    );
    expect(agent.edit()).toBe("deny");
    expect(agent.bash("git status")).toBe("allow");
  });

  it.each(["allowed-tools", "allowedTools", "Tools", "allowed_tools"])("reads `%s` as tools", (key) => {
    for (const format of ["claude", "opencode", "agentry"] as const) {
      expect(powers(format, md(`${key}: Read, Grep`)).tools, format).toEqual(["read", "grep"]);
    }
  });

  it.each(["disallowed-tools", "disallowed_tools", "disallowedTools"])(
    "reads `%s` as disallowedTools",
    (key) => {
      expect(powers("claude", md(`${key}: Write, Edit, Bash`)).deniedTools).toEqual(
        expect.arrayContaining(["bash", "write", "edit"]),
      );
    },
  );

  it.each(['sandbox = "read-only"', 'sandbox_mode = "read-only"'])(
    "makes a Codex role with %s read-only",
    (line) => {
      const agent = powers("codex", `description = "d"\ndeveloper_instructions = "p"\n${line}\n`);
      expect(agent.readOnly).toBe(true);
      expect(agent.bash("git log -3")).toBe("allow");
      expect(agent.bash("rm -rf src")).toBe("deny");
      expect(agent.deniedTools).toEqual(expect.arrayContaining(["write", "edit"]));
    },
  );

  it("makes a Markdown agent with `sandbox_mode: read-only` or `readOnly: true` read-only", () => {
    expect(powers("claude", md("sandbox_mode: read-only")).readOnly).toBe(true);
    expect(powers("opencode", md("readOnly: true")).readOnly).toBe(true);
    expect(powers("agentry", md('read-only: "true"')).readOnly).toBe(true);
  });

  it("keeps a read-only agent read-only whatever its permission allows, and keeps its denies", () => {
    const agent = powers(
      "claude",
      md("sandbox_mode: read-only", "permission:", "  edit: allow", "  bash:", '    "cat *": deny'),
    );
    expect(agent.edit()).toBe("deny");
    expect(agent.bash("rm -rf src")).toBe("deny");
    expect(agent.bash("cat .env")).toBe("deny");
    expect(agent.bash("ls")).toBe("allow");
  });

  it("fails a file whose permission allows commands its read-only mode or tool patterns forbid", () => {
    expectError(
      "claude",
      md("sandbox_mode: read-only", "permission:", "  bash: allow"),
      /permission says bash:'\*':allow while sandbox_mode limits bash/,
    );
    expectError(
      "claude",
      md("tools: Read, Bash(git diff:*)", "permission: ask"),
      /permission says \*:'\*':ask while tools limits bash/,
    );
    expectError(
      "opencode",
      md("tools: Bash(git diff:*)", "permissionMode: plan"),
      /tools and permissionMode both limit bash/,
    );
  });

  it("keeps a plan-mode agent's own denies over the read-only allowlist", () => {
    const agent = powers("claude", md("permissionMode: plan", "permission:", "  bash:", '    "cat *": deny'));
    expect(agent.readOnly).toBe(true);
    expect(agent.bash("cat .env")).toBe("deny");
    expect(agent.bash("ls")).toBe("allow");
  });
});

describe("restrictions agentry cannot read fail the file", () => {
  it.each([
    ["deniedCommands: [rm, curl]", /deniedCommands looks like it limits the agent/],
    ["tool_policy: strict", /tool_policy looks like it limits/],
    ["write: false", /write looks like it limits/],
    ["canAccessNetwork: false", /canAccessNetwork looks like it limits/],
  ])("fails `%s`", (line, message) => {
    expectError("claude", md(line), message);
  });

  it("fails a permissions value it cannot read instead of dropping it", () => {
    expectError("opencode", md("permissions:", "  - edit: deny"), /permissions\[0\]/);
    expectError("opencode", md("permissions: read-only"), /permissions: must be "allow", "ask" or "deny"/);
  });

  it("fails a disallowedTools entry that is not a name (dropping it would hand the tool back)", () => {
    expectError("claude", md("disallowedTools:", "  - Bash: rm"), /not a tool name/);
  });
});

describe("invalid YAML never loses a restriction", () => {
  // An unquoted ": " in the description makes strict YAML fail; the lenient reader takes over.
  const broken = "description: Reviews code: carefully";

  it('reads a quoted key such as `"tools": Read, Grep`', () => {
    const text = ["---", broken, '"tools": Read, Grep', "---", "Prompt."].join("\n");
    expect(powers("claude", text).tools).toEqual(["read", "grep"]);
  });

  it("fails a restriction given twice instead of keeping the last", () => {
    const text = ["---", broken, "tools: Read", "tools: Read, Write, Edit, Bash", "---", "x"].join("\n");
    expectError("claude", text, /key tools appears twice.*limits what the agent may do/);
  });

  it("fails two spellings of one restriction", () => {
    expectError(
      "claude",
      md("tools: Read", "allowed-tools: Read, Bash"),
      /tools and allowed-tools both set tools/,
    );
  });

  it("fails a restriction line it cannot read", () => {
    const text = ["---", "  tools: Read", broken, "---", "x"].join("\n");
    expectError("claude", text, /could not read front matter line "tools: Read".*limits/);
  });

  it("fails a restriction folded into another key's value", () => {
    const text = ["---", "description: Reviews code: carefully", "  tools: Read", "---", "x"].join("\n");
    expectError("claude", text, /is read as part of description, not as key tools/);
  });

  it("fails a restriction that valid YAML swallows into an unclosed quote", () => {
    // Valid YAML: the description is "Reviews the code tools: Read, Grep", and there is no tools key.
    const text = ["---", "description: 'Reviews the code", "  tools: Read, Grep'", "---", "x"].join("\n");
    expectError(
      "claude",
      text,
      /"tools: Read, Grep'" reads like the key tools, but YAML takes it as part of description's value/,
    );
  });

  it("fails a duplicated key inside a permission map", () => {
    const text = ["---", broken, "permission:", "  edit: deny", "  edit: allow", "---", "x"].join("\n");
    expectError("opencode", text, /permission/);
  });
});

describe("values are read as their authors mean them", () => {
  it('skips `disable: "true"` like `disable: true`', () => {
    const { definition, summary } = load("opencode", md('disable: "true"'));
    expect(definition).toBeUndefined();
    expect(summary).toEqual(["info: the agent is disabled (disable: true) → skipped the file"]);
    expect(load("claude", md("disabled: yes")).definition).toBeUndefined();
  });

  it("fails a disable value that is not true or false", () => {
    expectError("opencode", md("disable: sometimes"), /disable must be true or false/);
  });

  it("reads a Claude tools map as the tools set true", () => {
    const agent = powers("claude", md("tools:", "  Read: true", "  Grep: true", "  Write: false"));
    expect(agent.tools).toEqual(["read", "grep"]);
  });

  it("fails a Claude tools map that only switches tools off", () => {
    expectError("claude", md("tools:", "  Write: false"), /only switches tools off/);
  });

  it('reads an OpenCode map of trues without "*" as only those tools, with a warning', () => {
    const { definition, summary } = load("opencode", md("tools:", "  read: true", '  bash: "true"'));
    expect(definition?.tools).toEqual(["read", "bash"]);
    expect(summary).toContain(
      'warning: tools switches tools on without "*": false → gave the agent only the tools set true (add "*": true to keep the others)',
    );
  });

  it("still reads an OpenCode map of falses as the parent's tools minus those", () => {
    const agent = powers("opencode", md("tools:", "  write: false", "  edit: false"));
    expect(agent.tools).toBe("inherited");
    expect(agent.deniedTools).toEqual(["write", "edit"]);
  });
});
