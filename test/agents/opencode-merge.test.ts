import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { hasErrors } from "../../src/agents/diagnostics.ts";
import { effectiveAccess } from "../../src/agents/effective-access.ts";
import { bashPermissionPatterns } from "../../src/permissions/bash-command.ts";
import { evaluate, evaluateRequest } from "../../src/permissions/evaluate.ts";
import { agentFolders } from "./agent-folders.ts";

/**
 * Issue 21: OpenCode reads an opencode.json `agent` entry and a same-named `.opencode/agent/<name>.md`
 * as one agent (the Markdown deep-merged over the entry), and applies the config's own `permission` to
 * every agent. Read apart, the entry's limits were dropped, and a project `explore` replaced the
 * read-only built-in with a full-tools agent while `agents check` reported nothing wrong.
 */

const folders = agentFolders("agentry-opencode-merge-");
const { write } = folders;
const load = () => folders.load({});

function powers(definition: Parameters<typeof effectiveAccess>[0] | undefined) {
  if (definition === undefined) throw new Error("not loaded");
  const access = effectiveAccess(definition);
  return {
    ...access,
    edit: (path: string) => evaluate(access.rules, "edit", path),
    bash: (command: string) => evaluateRequest(access.rules, "bash", bashPermissionPatterns(command)).action,
  };
}

const REVIEWER_LIMITS = {
  permission: {
    bash: { "*": "deny", "git diff*": "allow" },
    edit: { "*": "deny", "*.md": "allow" },
  },
};

describe("an opencode.json agent and a same-named .md agent", () => {
  it("are one agent: the entry's limits hold, the file's description and prompt are used", async () => {
    await write(
      join(folders.project, "opencode.json"),
      JSON.stringify({ agent: { reviewer: REVIEWER_LIMITS } }),
    );
    await write(
      join(folders.project, ".opencode/agent/reviewer.md"),
      "---\ndescription: Reviews diffs\nmode: subagent\n---\nReview the diff.\n",
    );
    const { byName, diagnostics, summary } = await load();
    expect(hasErrors(diagnostics)).toBe(false);
    const reviewer = byName.get("reviewer");
    expect(reviewer).toMatchObject({
      description: "Reviews diffs",
      prompt: "Review the diff.",
      mode: "subagent",
      source: {
        kind: "project",
        format: "opencode",
        path: join(folders.project, ".opencode/agent/reviewer.md"),
      },
    });
    const agent = powers(reviewer);
    expect(agent.bash("git diff HEAD")).toBe("allow");
    expect(agent.bash("rm -rf build")).toBe("deny");
    expect(agent.edit("docs/notes.md")).toBe("allow");
    expect(agent.edit("src/index.ts")).toBe("deny");
    expect(summary).toContain(
      `info: merged with the agent "reviewer" of ${join(folders.project, "opencode.json")}, as OpenCode merges them → this file's keys win; permission and tools maps merge key by key`,
    );
  });

  it("merge key by key: the Markdown's entry for a pattern wins, the entry's other patterns stay", async () => {
    await write(
      join(folders.project, "opencode.jsonc"),
      JSON.stringify({ agent: { reviewer: REVIEWER_LIMITS } }),
    );
    await write(
      join(folders.project, ".opencode/agents/reviewer.md"),
      '---\ndescription: Reviews\npermission:\n  bash:\n    "*": ask\n---\nReview.\n',
    );
    const agent = powers((await load()).byName.get("reviewer"));
    expect(agent.bash("git diff HEAD")).toBe("allow");
    expect(agent.bash("npm test")).toBe("ask");
    expect(agent.edit("src/index.ts")).toBe("deny");
  });

  it("the config's own permission applies to the Markdown agents of its level too", async () => {
    await write(join(folders.project, "opencode.json"), JSON.stringify({ permission: { edit: "deny" } }));
    await write(
      join(folders.project, ".opencode/agent/writer.md"),
      "---\ndescription: Writes\n---\nWrite.\n",
    );
    const agent = powers((await load()).byName.get("writer"));
    expect(agent.readOnly).toBe(true);
  });

  it("whose limits cannot be read is not loaded at all, and the error is reported", async () => {
    await write(
      join(folders.project, "opencode.json"),
      JSON.stringify({ agent: { reviewer: { permission: { bash: "sometimes" } } } }),
    );
    await write(
      join(folders.project, ".opencode/agent/reviewer.md"),
      "---\ndescription: Reviews\n---\nReview.\n",
    );
    const { byName, diagnostics } = await load();
    expect(byName.has("reviewer")).toBe(false);
    expect(hasErrors(diagnostics)).toBe(true);
  });

  it("a config that cannot be read keeps every OpenCode agent of its level from loading", async () => {
    await write(join(folders.project, "opencode.json"), '{ "permission": { "edit": "deny" }, oops }');
    await write(
      join(folders.project, ".opencode/agent/writer.md"),
      "---\ndescription: Writes\n---\nWrite.\n",
    );
    await write(
      join(folders.project, ".claude/agents/other.md"),
      "---\nname: other\ndescription: Other\n---\nX.\n",
    );
    const { byName, summary } = await load();
    expect(byName.has("writer")).toBe(false);
    expect(byName.has("other")).toBe(true);
    expect(summary).toContain(
      `error: ${join(folders.project, "opencode.json")} could not be read: as in OpenCode, its permission, tools and any agent entry named "writer" apply to this agent, so it is not loaded without them → skipped the file`,
    );
  });
});

describe("the config's permission under an agent's own, as OpenCode merges them", () => {
  /** The agent `worker`, loaded under a project opencode.json whose `permission` is `config`. */
  async function worker(config: unknown, own: string[]) {
    await write(join(folders.project, "opencode.json"), JSON.stringify({ permission: config }));
    const front = ["---", "description: Works", "permission:", ...own.map((line) => `  ${line}`), "---"];
    await write(join(folders.project, ".opencode/agent/worker.md"), [...front, "Work.", ""].join("\n"));
    const { byName, summary } = await load();
    if (!byName.has("worker")) throw new Error(`not loaded:\n${summary.join("\n")}`);
    return powers(byName.get("worker"));
  }

  it("the agent's rule for a pattern comes after the config's, so it wins where both match", async () => {
    const agent = await worker({ bash: { "*": "ask", "git *": "allow" } }, ["bash:", '  "*": deny']);
    expect(agent.bash("git status")).toBe("deny");
    expect(agent.bash("npm test")).toBe("deny");
  });

  it("the config's other patterns of that permission stay", async () => {
    const agent = await worker({ bash: { "*": "deny", "git *": "allow" } }, ["bash:", '  "npm test": allow']);
    expect(agent.bash("git status")).toBe("allow");
    expect(agent.bash("npm test")).toBe("allow");
    expect(agent.bash("rm -rf src")).toBe("deny");
  });

  it("a bare action and a map of patterns replace each other, key by key", async () => {
    const allowAll = await worker({ bash: "allow" }, ["bash:", '  "rm *": deny']);
    expect(allowAll.bash("rm -rf src")).toBe("deny");
    expect(allowAll.bash("ls")).toBe("ask");
    const denyAll = await worker({ bash: { "git *": "allow" } }, ["bash: deny"]);
    expect(denyAll.bash("git status")).toBe("deny");
  });

  it("a bare action for everything stays first", async () => {
    const agent = await worker("ask", ["bash:", '  "git *": allow']);
    expect(agent.bash("git status")).toBe("allow");
    expect(agent.edit("src/index.ts")).toBe("ask");
  });

  it("Claude's {allow, ask, deny} lists of both apply, neither replacing the other", async () => {
    const agent = await worker({ deny: ["Bash(rm:*)"] }, ["deny:", "  - Edit"]);
    expect(agent.bash("rm -rf src")).toBe("deny");
    expect(agent.edit("src/index.ts")).toBe("deny");
  });

  it("a rule list of the agent's applies after the config's map", async () => {
    const agent = await worker({ edit: "deny" }, ["- { permission: bash, pattern: 'rm *', action: deny }"]);
    expect(agent.edit("src/index.ts")).toBe("deny");
    expect(agent.bash("rm -rf src")).toBe("deny");
  });
});

describe("OpenCode's explore and plan", () => {
  it("a project explore (entry and file) tunes the read-only built-in instead of replacing it", async () => {
    await write(
      join(folders.project, "opencode.json"),
      JSON.stringify({ agent: { explore: { permission: { bash: { "*": "deny", "git *": "allow" } } } } }),
    );
    await write(
      join(folders.project, ".opencode/agent/explore.md"),
      "---\ndescription: Our explorer\n---\nExplore.\n",
    );
    const { byName, diagnostics } = await load();
    expect(hasErrors(diagnostics)).toBe(false);
    const explore = byName.get("explore");
    expect(explore).toMatchObject({ description: "Our explorer", prompt: "Explore.", mode: "subagent" });
    const agent = powers(explore);
    expect(agent.readOnly).toBe(true);
    expect(agent.tools).toEqual(["read", "grep", "glob", "list", "bash"]);
    expect(agent.bash("git status")).toBe("allow");
    expect(agent.bash("npm test")).toBe("deny");
  });

  it("an explore.md with no limits of its own stays read-only", async () => {
    await write(join(folders.project, ".opencode/agent/explore.md"), "---\ndescription: Mine\n---\nMine.\n");
    const agent = powers((await load()).byName.get("explore"));
    expect(agent.readOnly).toBe(true);
    expect(agent.deniedTools).toEqual(expect.arrayContaining(["write", "edit"]));
  });

  it("an entry without a description tunes the built-in (its model), where it was skipped before", async () => {
    await write(
      join(folders.project, "opencode.json"),
      JSON.stringify({ agent: { explore: { model: "anthropic/claude-haiku-4-5" } } }),
    );
    const explore = (await load()).byName.get("explore");
    expect(explore?.model).toBe("anthropic:claude-haiku-4-5");
    expect(explore?.source.kind).toBe("project");
    expect(powers(explore).readOnly).toBe(true);
  });
});

describe("a definition that replaces a read-only built-in with a wider agent", () => {
  it("is loaded as its file says, with a warning (never silently)", async () => {
    await write(
      join(folders.project, ".claude/agents/review.md"),
      "---\nname: review\ndescription: Fixes things\n---\nFix.\n",
    );
    const { byName, summary } = await load();
    expect(powers(byName.get("review")).readOnly).toBe(false);
    expect(summary).toContain(
      `warning: agent "review" replaces the read-only built-in review with an agent that may edit files → kept ${join(folders.project, ".claude/agents/review.md")}; give it limits (tools, permission) if it should stay read-only`,
    );
  });
});

describe("the configs' permission and tools, spelled another way", () => {
  it("merge under an agent's own spelling (permissions, allowed-tools) instead of failing it for two keys it does not have", async () => {
    await write(
      join(folders.project, "opencode.json"),
      JSON.stringify({ permission: { edit: "deny" }, tools: { write: false } }),
    );
    await write(
      join(folders.project, ".opencode/agent/writer.md"),
      '---\ndescription: Writes\npermissions:\n  bash:\n    "*": deny\n    "git *": allow\nallowed-tools: Read, Grep, Bash\n---\nWrite.\n',
    );
    const { byName, diagnostics } = await load();
    expect(hasErrors(diagnostics)).toBe(false);
    const agent = powers(byName.get("writer"));
    expect(agent.tools).toEqual(["read", "grep", "bash"]);
    expect(agent.readOnly).toBe(true);
    expect(agent.bash("git status")).toBe("allow");
    expect(agent.bash("rm -rf build")).toBe("deny");
  });

  it("a config's permissions (plural) applies to the level's agents as its permission does", async () => {
    await write(join(folders.project, "opencode.json"), JSON.stringify({ permissions: { edit: "deny" } }));
    await write(
      join(folders.project, ".opencode/agent/writer.md"),
      "---\ndescription: Writes\n---\nWrite.\n",
    );
    const { byName, summary } = await load();
    expect(byName.get("writer")?.permission).toEqual({ edit: "deny" });
    expect(powers(byName.get("writer")).readOnly).toBe(true);
    expect(summary).toEqual([]);
  });

  it("OpenCode V2's permissions rules, which agentry cannot read, keep the level's agents from loading", async () => {
    await write(
      join(folders.project, "opencode.jsonc"),
      JSON.stringify({ permissions: [{ action: "shell", resource: "*", effect: "deny" }] }),
    );
    await write(
      join(folders.project, ".opencode/agent/writer.md"),
      "---\ndescription: Writes\n---\nWrite.\n",
    );
    const { byName, diagnostics } = await load();
    expect(byName.has("writer")).toBe(false);
    expect(diagnostics.map((d) => [d.severity, d.file, d.action])).toEqual([
      ["error", join(folders.project, "opencode.jsonc"), "skipped its agents"],
      ["error", join(folders.project, ".opencode/agent/writer.md"), "skipped the file"],
    ]);
    expect(diagnostics[0]?.message).toMatch(/^permissions\[0\]\.permission: is required;/);
  });

  it.each([
    [
      { permission: { edit: "deny" }, permissions: { edit: "allow" } },
      "permission and permissions both set permission",
    ],
    [{ tools: { bash: false }, allowed_tools: ["read", "bash"] }, "tools and allowed_tools both set tools"],
  ])(
    "a config that writes one twice (%j) is an error that keeps the level's agents from loading",
    async (config, both) => {
      await write(join(folders.project, "opencode.json"), JSON.stringify(config));
      await write(
        join(folders.project, ".opencode/agent/writer.md"),
        "---\ndescription: Writes\n---\nWrite.\n",
      );
      const { byName, summary } = await load();
      expect(byName.has("writer")).toBe(false);
      expect(summary[0]).toBe(
        `error: ${both}: it is not clear which limit is meant, so write it once → skipped its agents`,
      );
    },
  );

  it("an agent that writes one twice fails, naming its own two keys", async () => {
    await write(
      join(folders.project, "opencode.json"),
      JSON.stringify({ permission: { edit: "deny" }, tools: { bash: false } }),
    );
    await write(
      join(folders.project, ".opencode/agent/writer.md"),
      "---\ndescription: Writes\ntools:\n  grep: false\nallowed-tools: Read\npermission:\n  bash: deny\npermissions:\n  bash: ask\n---\nWrite.\n",
    );
    const { byName, summary } = await load();
    expect(byName.has("writer")).toBe(false);
    expect(summary).toEqual([
      "error: tools and allowed-tools both set tools: it is not clear which limit is meant, so write it once → skipped the file",
      "error: permission and permissions both set permission: it is not clear which limit is meant, so write it once → skipped the file",
    ]);
  });
});
