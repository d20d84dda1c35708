import { readdirSync, readFileSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { AgentDefinition } from "../../src/agents/definition.ts";
import { loadAgentDefinitions } from "../../src/agents/discover.ts";
import { effectiveAccess } from "../../src/agents/effective-access.ts";
import { bashPermissionPatterns } from "../../src/permissions/bash-command.ts";
import { evaluate, evaluateRequest } from "../../src/permissions/evaluate.ts";

/**
 * Every agent-file example of the README, ARCHITECTURE.md and docs/ is loaded as the file it says it
 * is, and does what its text says (issue 9: the README's OpenCode `docs-writer` could not write). An
 * example is a fenced block after a paragraph that names an agent file
 * (`.claude/agents/code-reviewer.md`, `opencode.json` …); an agent-looking block without such a name
 * fails the test. docs/agent-files.md, the reference, must show every format.
 */

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const REFERENCE = "docs/agent-files.md";
const DOCUMENTS = [
  "README.md",
  "ARCHITECTURE.md",
  ...readdirSync(join(ROOT, "docs"))
    .filter((name) => name.endsWith(".md"))
    .map((name) => `docs/${name}`),
];

/** Where agent files live; the path a paragraph names decides the example's format. */
const AGENT_PATH =
  /`((?:\.agentry\/agents|subagents|\.claude\/agents|\.opencode\/agents?|\.codex\/agents)\/[\w./-]+\.(?:md|toml)|(?:\.opencode\/)?opencode\.jsonc?|\.codex\/config\.toml)`/g;

/** Files with the same front matter that are no agent: saved commands and skills (docs/commands.md, skills.md). */
const NON_AGENT_PATH =
  /`[^`]*(?:\.claude\/commands|\.opencode\/commands?|\.agentry\/commands)\/[^`]*\.md`|SKILL\.md/;

interface Example {
  document: string;
  line: number;
  path: string;
  text: string;
}

function examplesOf(document: string): Example[] {
  const lines = readFileSync(join(ROOT, document), "utf8").split("\n");
  const examples: Example[] = [];
  let prose: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const fence = /^```(\w*)\s*$/.exec(lines[i] ?? "");
    if (fence === null) {
      prose.push(lines[i] ?? "");
      continue;
    }
    const end = lines.findIndex((line, k) => k > i && line.startsWith("```"));
    const text = `${lines.slice(i + 1, end).join("\n")}\n`;
    const paths = [...prose.join("\n").matchAll(AGENT_PATH)].map((m) => m[1] ?? "");
    const path = paths.at(-1);
    if (path !== undefined && ["markdown", "toml", "json", "jsonc"].includes(fence[1] ?? "")) {
      examples.push({ document, line: i + 1, path, text });
    } else if (looksLikeAgentFile(text) && !NON_AGENT_PATH.test(prose.join("\n"))) {
      throw new Error(`${document}:${i + 1}: an agent-file example must follow text naming its file`);
    }
    prose = [];
    i = end;
  }
  return examples;
}

function looksLikeAgentFile(text: string): boolean {
  return /^---\n[\s\S]*description:/.test(text) || /developer_instructions|^\[agents\./m.test(text);
}

/** What each example's text promises, checked on what the agent really gets. */
const PROMISES: Record<string, (agent: AgentDefinition, can: Can) => void> = {
  fixer: (agent, can) => {
    expect(agent).toMatchObject({ model: "haiku", maxTurns: 20, workspace: { mode: "worktree" } });
    expect(can.tools).toEqual(["read", "grep", "glob", "edit", "bash"]);
    expect(can.bash("npm test -- src/a.test.ts")).toBe("allow");
    expect(can.bash("rm -rf src")).toBe("ask");
  },
  "code-reviewer": (agent, can) => {
    expect(agent.model).toBe("sonnet");
    expect(can.tools).toEqual(["read", "grep", "glob", "bash"]);
    expect(can.bash("git diff HEAD~1")).toBe("allow");
    expect(can.bash("git push")).toBe("deny");
  },
  "docs-writer": (_agent, can) => {
    expect(can.edit("docs/guide.md")).toBe("allow");
    expect(can.edit("src/index.ts")).toBe("deny");
    expect(can.denied).toContain("bash");
  },
  "security-auditor": (agent, can) => {
    expect(agent.model).toBe("openai:gpt-5.5");
    expect(can.readOnly).toBe(true);
    expect(can.bash("git log -5")).toBe("allow");
    expect(can.bash("rm -rf src")).toBe("deny");
  },
  reviewer: (agent) => {
    // A remote (A2A) agent: its url, and its token only as a variable to expand.
    expect(agent).toMatchObject({
      url: "https://agents.example.com/agents/reviewer",
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a literal ${VARIABLE}, as agent files write it
      headers: { Authorization: "Bearer ${REVIEWER_TOKEN}" },
    });
  },
  researcher: (agent) => {
    expect(agent).toMatchObject({ maxTurns: 15, workspace: { mode: "isolated", path: "agents/researcher" } });
    expect(agent.prompt).toContain("AGENTS.md of the research folder");
  },
  translator: (agent, can) => {
    expect(agent.prompt).toContain("You translate");
    expect(can.tools).toEqual(["read", "write"]);
    expect(can.edit("locales/de.json")).toBe("allow");
    expect(can.edit("src/index.ts")).toBe("deny");
  },
  explainer: (agent, can) => {
    expect(agent.description).toBe("Explains how a part of the code works; read-only.");
    expect(agent.prompt).toContain("explain how it works");
    expect(can.readOnly).toBe(true);
    expect(can.bash("git log -5")).toBe("allow");
  },
};

interface Can {
  tools: string[] | "inherited";
  denied: string[];
  readOnly: boolean;
  edit(path: string): string;
  bash(command: string): string;
}

function can(agent: AgentDefinition): Can {
  const access = effectiveAccess(agent);
  return {
    tools: access.tools,
    denied: access.deniedTools,
    readOnly: access.readOnly,
    edit: (path) => evaluate(access.rules, "edit", path),
    bash: (command) => evaluateRequest(access.rules, "bash", bashPermissionPatterns(command)).action,
  };
}

let project: string;
beforeEach(async () => {
  project = await mkdtemp(join(tmpdir(), "agentry-doc-examples-"));
});
afterEach(async () => {
  await rm(project, { recursive: true, force: true, maxRetries: 3 });
});

async function write(path: string, text: string): Promise<void> {
  await mkdir(dirname(join(project, path)), { recursive: true });
  await writeFile(join(project, path), text);
}

it(`${REFERENCE} has examples of every format, each after text naming its file`, () => {
  const paths = examplesOf(REFERENCE)
    .map((e) => e.path)
    .join(" ");
  for (const folder of [
    ".agentry/agents",
    ".claude/agents",
    ".opencode/agent",
    ".codex/agents",
    "subagents/",
  ])
    expect(paths, REFERENCE).toContain(folder);
});

describe.each(DOCUMENTS)("agent-file examples of %s", (document) => {
  it("loads every example without a problem, and each does what its text says", async () => {
    const examples = examplesOf(document);
    for (const example of examples) await write(example.path, example.text);
    // The AgentScope example's prompt is its folder's AGENTS.md.
    await write("agents/researcher/AGENTS.md", "The AGENTS.md of the research folder.\n");
    const loaded = await loadAgentDefinitions({ projectDir: project, homeDir: join(project, "home") });
    const problems = loaded.diagnostics.filter((d) => d.severity !== "info");
    expect(problems, JSON.stringify(problems, null, 2)).toEqual([]);
    const fromExamples = loaded.definitions.filter((d) => d.source.kind === "project");
    expect(fromExamples.length).toBeGreaterThanOrEqual(examples.length - 1);
    for (const agent of fromExamples) {
      const promise = PROMISES[agent.name];
      if (promise === undefined)
        throw new Error(`${document}: say what example "${agent.name}" promises in PROMISES`);
      promise(agent, can(agent));
    }
  });
});
