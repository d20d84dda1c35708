import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { AgentDefinition } from "../../../src/agents/definition.ts";
import { effectiveAccess } from "../../../src/agents/effective-access.ts";
import { evaluate } from "../../../src/permissions/evaluate.ts";
import { agentFolders } from "../agent-folders.ts";

/**
 * A level's OpenCode config files read together (`loaders/opencode-level.ts`), through discovery on
 * real folders: what one config leaves to the next, what a config that cannot be read stops, and how
 * the configs' own `permission` and `tools` sit under each agent. The project's configs merge in the
 * order opencode.jsonc, opencode.json (a later one's keys win).
 */

const folders = agentFolders("agentry-opencode-level-");
const { write } = folders;
const load = () => folders.load({ includeBuiltins: false });

const json = (value: unknown): string => JSON.stringify(value, null, 2);
const writer = () =>
  write(join(folders.project, ".opencode/agent/writer.md"), "---\ndescription: Writes\n---\nWrite.\n");

function access(definition: AgentDefinition | undefined) {
  if (definition === undefined) throw new Error("not loaded");
  const { rules, ...rest } = effectiveAccess(definition);
  return { ...rest, edit: (path: string) => evaluate(rules, "edit", path) };
}

describe("a level's config files", () => {
  it("a config that is not an object holds no settings: the level's agents still load", async () => {
    await write(join(folders.project, "opencode.json"), "null");
    await writer();
    const { byName, diagnostics } = await load();
    expect(byName.get("writer")?.prompt).toBe("Write.");
    expect(diagnostics).toEqual([]);
  });

  it("a config whose `agent` is not a map of agents is an error that keeps the level's agents from loading", async () => {
    await write(join(folders.project, "opencode.json"), json({ agent: ["writer"] }));
    await writer();
    const { definitions, diagnostics } = await load();
    expect(definitions).toEqual([]);
    expect(diagnostics[0]).toEqual({
      severity: "error",
      file: join(folders.project, "opencode.json"),
      message: "agent must map agent names to definitions",
      action: "skipped its agents",
    });
  });

  it("two configs that are not JSON are both reported, and both named on the agents they stop", async () => {
    await write(join(folders.project, "opencode.jsonc"), "{ oops }");
    await write(join(folders.project, "opencode.json"), "{ oops }");
    await writer();
    const { definitions, summary } = await load();
    expect(definitions).toEqual([]);
    expect(summary).toEqual([
      expect.stringMatching(/^error: not valid JSON: .* → skipped its agents$/),
      expect.stringMatching(/^error: not valid JSON: .* → skipped its agents$/),
      `error: ${join(folders.project, "opencode.jsonc")} and ${join(folders.project, "opencode.json")} could not be read: as in OpenCode, its permission, tools and any agent entry named "writer" apply to this agent, so it is not loaded without them → skipped the file`,
    ]);
  });

  it("a config that is there but cannot be opened keeps the level's agents from loading", async () => {
    await mkdir(join(folders.project, "opencode.json"));
    await writer();
    const { definitions, summary } = await load();
    expect(definitions).toEqual([]);
    expect(summary).toContain(
      `error: ${join(folders.project, "opencode.json")} could not be read: as in OpenCode, its permission, tools and any agent entry named "writer" apply to this agent, so it is not loaded without them → skipped the file`,
    );
  });
});

describe("an agent entry given by two configs", () => {
  it("merges: the later config's keys are added, the earlier config's limits stay", async () => {
    await write(
      join(folders.project, "opencode.jsonc"),
      json({ agent: { reviewer: { description: "Reviews", permission: { edit: "deny" } } } }),
    );
    await write(join(folders.project, "opencode.json"), json({ agent: { reviewer: { prompt: "Review." } } }));
    const { byName, diagnostics } = await load();
    expect(diagnostics).toEqual([]);
    expect(byName.get("reviewer")?.prompt).toBe("Review.");
    expect(access(byName.get("reviewer")).readOnly).toBe(true);
  });

  it("that the later config gives as no object replaces the earlier entry and fails the agent", async () => {
    await write(
      join(folders.project, "opencode.jsonc"),
      json({ agent: { reviewer: { description: "Reviews", prompt: "Review." } } }),
    );
    await write(join(folders.project, "opencode.json"), json({ agent: { reviewer: true } }));
    const { definitions, summary } = await load();
    expect(definitions).toEqual([]);
    expect(summary).toEqual([
      'error: agent "reviewer": must be an object of agent keys (description, prompt, tools, permission …) → skipped the file',
    ]);
  });

  it("that is no object fails the same-named .md too, naming the entry", async () => {
    await write(join(folders.project, "opencode.json"), json({ agent: { reviewer: "Reviews diffs" } }));
    await write(
      join(folders.project, ".opencode/agent/reviewer.md"),
      "---\ndescription: Reviews\n---\nReview.\n",
    );
    const { definitions, diagnostics } = await load();
    expect(definitions).toEqual([]);
    expect(diagnostics).toEqual([
      expect.objectContaining({
        severity: "error",
        file: join(folders.project, ".opencode/agent/reviewer.md"),
        message: `must be an object of agent keys (description, prompt, tools, permission …) (the entry "reviewer" of ${join(folders.project, "opencode.json")})`,
      }),
    ]);
  });
});

describe("an agent file over its entry", () => {
  it("a permission that is one action replaces the entry's map, as OpenCode merges", async () => {
    await write(
      join(folders.project, "opencode.json"),
      json({ agent: { reviewer: { permission: { edit: { "*": "allow" }, bash: "allow" } } } }),
    );
    await write(
      join(folders.project, ".opencode/agent/reviewer.md"),
      "---\ndescription: Reviews\npermission: deny\n---\nReview.\n",
    );
    const { byName } = await load();
    expect(byName.get("reviewer")?.permission).toBe("deny");
    expect(access(byName.get("reviewer")).deniedTools).toEqual(expect.arrayContaining(["bash", "edit"]));
  });
});

describe("the configs' own permission and tools", () => {
  it("a later config that sets neither keeps the earlier config's", async () => {
    await write(
      join(folders.project, "opencode.jsonc"),
      json({ permission: { edit: "deny" }, tools: { bash: false } }),
    );
    await write(join(folders.project, "opencode.json"), json({ $schema: "https://opencode.ai/config.json" }));
    await writer();
    const writerAccess = access((await load()).byName.get("writer"));
    expect(writerAccess.readOnly).toBe(true);
    expect(writerAccess.deniedTools).toContain("bash");
  });

  it("merge key by key from config to config", async () => {
    await write(
      join(folders.project, "opencode.jsonc"),
      json({ permission: { edit: { "*": "deny", "docs/**": "allow" } }, tools: { grep: false } }),
    );
    await write(
      join(folders.project, "opencode.json"),
      json({ permission: { bash: "deny" }, tools: { glob: false } }),
    );
    await writer();
    const writerAccess = access((await load()).byName.get("writer"));
    expect(writerAccess.deniedTools).toEqual(expect.arrayContaining(["grep", "glob", "bash"]));
    expect(writerAccess.edit("docs/a.md")).toBe("allow");
    expect(writerAccess.edit("src/a.ts")).toBe("deny");
  });

  it("a later config's tools that are not a map replace the earlier map, as OpenCode merges", async () => {
    await write(join(folders.project, "opencode.jsonc"), json({ tools: { bash: false } }));
    await write(join(folders.project, "opencode.json"), json({ tools: ["read", "grep"] }));
    await writer();
    const { byName, diagnostics } = await load();
    expect(diagnostics).toEqual([]);
    expect(byName.get("writer")?.tools).toEqual(["read", "grep"]);
  });

  it("an agent's own tools map is merged over the configs' map", async () => {
    await write(join(folders.project, "opencode.json"), json({ tools: { bash: false } }));
    await write(
      join(folders.project, ".opencode/agent/writer.md"),
      "---\ndescription: Writes\ntools:\n  grep: false\n---\nWrite.\n",
    );
    expect(access((await load()).byName.get("writer")).deniedTools).toEqual(
      expect.arrayContaining(["bash", "grep"]),
    );
  });

  // A rule's extra key may be a condition that narrows it: read without it, the rule would grant more.
  const RULE_WITH_CONDITION = [{ permission: "bash", pattern: "*", action: "allow", when: "never" }];

  it("an agent's rule with a key agentry does not know fails the agent instead of merging without it", async () => {
    await write(
      join(folders.project, "opencode.json"),
      json({
        permission: { edit: "deny" },
        agent: { reviewer: { description: "Reviews", permission: RULE_WITH_CONDITION } },
      }),
    );
    const { definitions, summary } = await load();
    expect(definitions).toEqual([]);
    expect(summary).toEqual([
      'error: agent "reviewer": permission[0].when: unknown key (expected permission, pattern, action) → skipped the file',
    ]);
  });

  it.each([
    [
      "a rule with a key agentry does not know",
      RULE_WITH_CONDITION,
      "permission[0].when: unknown key (expected permission, pattern, action)",
    ],
    [
      "a Claude-style rule it cannot read",
      { allow: ["Bash(git diff"] },
      'permission.allow[0]: cannot read rule "Bash(git diff" (expected Tool or Tool(specifier))',
    ],
    [
      "an empty pattern",
      { bash: { "": "deny" } },
      "permission is not a rule list, an action or a permission map",
    ],
  ])(
    "a config's permission holding %s is an error that keeps the level's agents from loading",
    async (_, rules, problem) => {
      await write(
        join(folders.project, "opencode.json"),
        json({
          permission: rules,
          agent: { reviewer: { description: "Reviews", permission: { edit: "deny" } } },
        }),
      );
      await writer();
      const { definitions, summary } = await load();
      expect(definitions).toEqual([]);
      expect(summary).toEqual([
        `error: ${problem} → skipped its agents`,
        `error: ${join(folders.project, "opencode.json")} could not be read: as in OpenCode, its permission, tools and any agent entry named "writer" apply to this agent, so it is not loaded without them → skipped the file`,
      ]);
    },
  );
});

describe("agents that share a name with OpenCode's own", () => {
  it("an entry named like OpenCode's general agent is an agent of its own when it has a description", async () => {
    await write(
      join(folders.project, "opencode.json"),
      json({ agent: { general: { description: "Our general helper", prompt: "Help." } } }),
    );
    const { byName, diagnostics } = await load();
    expect(byName.get("general")).toMatchObject({ description: "Our general helper", prompt: "Help." });
    expect(diagnostics).toEqual([]);
  });

  it("an explore.md says that it tunes the built-in explore", async () => {
    await write(
      join(folders.project, ".opencode/agent/explore.md"),
      "---\ndescription: Ours\n---\nExplore.\n",
    );
    const { summary } = await load();
    expect(summary).toEqual([
      "info: explore is OpenCode's built-in agent too: this definition tunes agentry's built-in explore → started from the built-in's tools and rules; this definition's keys apply after them",
    ]);
  });
});

describe("the name key of an entry", () => {
  it.each([
    ["is not reported when it is the entry's key", "reviewer", []],
    [
      "is ignored with an info when it is another name",
      "other",
      [
        'info: agent "reviewer": OpenCode names an agent after its file or its key under agent → ignored name "other"',
      ],
    ],
  ])("%s", async (_, name, expected) => {
    await write(
      join(folders.project, "opencode.json"),
      json({ agent: { reviewer: { name, description: "Reviews", prompt: "Review." } } }),
    );
    const { byName, summary } = await load();
    expect(byName.get("reviewer")?.name).toBe("reviewer");
    expect(summary).toEqual(expected);
  });
});

describe("the line of an entry's problem", () => {
  const bad = '{ "description": "Reviews", "permission": { "bash": "sometimes" } }';
  it.each([
    {
      title: "is the line of its name under `agent`, not of an earlier mention of the name",
      lines: ["{", '  "default_agent": "reviewer",', '  "agent" : {', `    "reviewer": ${bad}`, "  }", "}"],
      line: 4,
    },
    {
      title: "is the line of its name when the agent is named agent",
      lines: ["{", '  "agent": {', `    "agent": ${bad}`, "  }", "}"],
      name: "agent",
      line: 3,
    },
    {
      title: "is not given when `agent` is written with escapes (rather than the line of another mention)",
      lines: [
        "{",
        '  "default_agent": "reviewer",',
        '  "\\u0061gent": {',
        `    "reviewer": ${bad}`,
        "  }",
        "}",
      ],
    },
    {
      title: "is not given when the name is written with escapes (rather than the last line)",
      lines: ["{", '  "agent": {', `    "re\\u0076iewer": ${bad}`, "  }", "}"],
    },
  ])("$title", async ({ lines, name = "reviewer", line }) => {
    await write(join(folders.project, "opencode.json"), lines.join("\n"));
    const { definitions, diagnostics } = await load();
    expect(definitions).toEqual([]);
    expect(diagnostics).toEqual([
      {
        severity: "error",
        file: join(folders.project, "opencode.json"),
        message: expect.stringMatching(new RegExp(`^agent "${name}": permission\\.bash: must be`)),
        action: "skipped the file",
        ...(line === undefined ? {} : { line }),
      },
    ]);
  });
});
