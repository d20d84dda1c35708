import { writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import type { AgentDefinition } from "../../../src/agents/definition.ts";
import { definitionRules } from "../../../src/agents/definition-rules.ts";
import { loadCodexAgent } from "../../../src/agents/loaders/codex.ts";
import { codexConfigRoles } from "../../../src/agents/loaders/codex-config.ts";
import { loadAgentFile } from "../../../src/agents/loaders/load-agent-file.ts";
import type { LoadResult } from "../../../src/agents/loaders/load-context.ts";
import { loadOpenCodeLevel } from "../../../src/agents/loaders/opencode-level.ts";
import { bashPermissionPatterns } from "../../../src/permissions/bash-command.ts";
import { evaluate, evaluateRequest } from "../../../src/permissions/evaluate.ts";
import { childTools } from "../../../src/subagents/child/child-config.ts";
import { type AnyTool, defineTool } from "../../../src/tools/tool.ts";
import { scaled } from "../../support/time-scale.ts";
import { type FuzzFile, generateAgentFile } from "./generate-agent-file.ts";
import { Prng } from "./prng.ts";
import {
  ACTION_RANK,
  type Action,
  POOL,
  PROBES,
  type Reading,
  referenceReadings,
} from "./reference-reading.ts";

/**
 * Issue 9's acceptance fuzz test: generated agent files (random keys in every harness's spelling,
 * restriction-like keys, values of every type, YAML/TOML/JSON damage) go through every loader. None
 * may crash, and no loaded agent may get a tool, or an answer to a probe request, wider than the
 * reference reading of the same file (`reference-reading.ts`, written apart from the loaders).
 * Replay one case with FUZZ_SEED=<seed> FUZZ_COUNT=1.
 */

const SEED = Number(process.env.FUZZ_SEED ?? 9_000_009);
const COUNT = Number(process.env.FUZZ_COUNT ?? 12_000);

const PARENT_TOOLS: AnyTool[] = POOL.filter((name) => name !== "task").map((name) =>
  defineTool({ name, description: name, schema: z.object({}), execute: async () => name }),
);

/** Every agent the loaders made of the file, by the name the reference reads it under. */
function load(file: FuzzFile): Array<{ name: string; result: LoadResult }> {
  switch (file.format) {
    case "opencode-config": {
      const { agents } = loadOpenCodeLevel({
        kind: "project",
        configs: [{ path: "/p/opencode.json", text: file.text }],
        markdown: [],
      });
      return agents.map((result) => ({ name: result.definition?.name ?? "", result }));
    }
    case "codex-config": {
      const { roles } = codexConfigRoles(file.text, "/p/.codex/config.toml");
      return roles.flatMap((role) => {
        const written = Object.keys(file.roleFiles ?? {}).find((path) =>
          role.configFile?.endsWith(`/${path}`),
        );
        // A config_file that does not exist is an error in discovery: no agent.
        if (role.configFile !== undefined && written === undefined) return [];
        const text = written === undefined ? "" : (file.roleFiles?.[written] ?? "");
        const path = role.configFile ?? "/p/.codex/config.toml";
        return [{ name: role.name, result: loadCodexAgent(text, path, "project", role) }];
      });
    }
    case "opencode-level": {
      const markdown = Object.entries(file.markdown ?? {}).map(([name, text]) => ({
        path: `/p/.opencode/agent/${name}.md`,
        text,
      }));
      const { agents } = loadOpenCodeLevel({
        kind: "project",
        configs: [{ path: "/p/opencode.json", text: file.text }],
        markdown,
      });
      return agents.map((result) => ({ name: result.definition?.name ?? "", result }));
    }
    case "codex":
      return [
        { name: "", result: loadAgentFile(file.text, "/p/.codex/agents/fuzz.toml", { format: "codex" }) },
      ];
    default:
      return [{ name: "", result: loadAgentFile(file.text, `/p/agents/fuzz.md`, { format: file.format }) }];
  }
}

/** How the agent is wider than the reading allows, if it is. */
function widenings(definition: AgentDefinition, reading: Reading | undefined): string[] {
  const rules = definitionRules(definition);
  const own = childTools({
    definition,
    parentTools: PARENT_TOOLS,
    baseTools: PARENT_TOOLS,
    rules,
    mayNest: true,
  });
  const tools = [...own.tools.map((tool) => tool.name), ...(own.spawn ? ["task"] : [])];
  // An agent with no tool can do nothing, whatever its file meant.
  if (tools.length === 0) return [];
  if (reading === undefined) return ["loaded an agent the reference reading does not see"];
  if (reading.kind === "unreadable") return [`loaded a file the reference cannot read (${reading.why})`];
  const problems = tools.filter((tool) => !reading.tools.has(tool)).map((tool) => `gets tool ${tool}`);
  // A probe counts when the agent has a tool that asks it; edits always do, since `readOnly` (what
  // `agents list` shows, what the command sandbox follows) is read from the edit rules.
  const asks = (permission: string): boolean =>
    permission === "edit" ||
    tools.some((tool) =>
      (permission === "read" ? ["read", "grep", "glob", "list"] : [permission]).includes(tool),
    );
  for (const probe of PROBES) {
    if (!asks(probe.permission)) continue;
    const got: Action =
      probe.permission === "bash"
        ? evaluateRequest(rules, "bash", bashPermissionPatterns(probe.value)).action
        : evaluate(rules, probe.permission, probe.value);
    const widest = reading.widest(probe);
    if (ACTION_RANK[got] > ACTION_RANK[widest])
      problems.push(`${probe.permission} ${JSON.stringify(probe.value)}: ${got}, at most ${widest}`);
  }
  return problems;
}

describe("agent file fuzz", () => {
  it(`loads ${COUNT} generated files without a crash and never wider than a reference reading`, {
    timeout: scaled(180_000),
  }, () => {
    const prng = new Prng(SEED);
    const failures: string[] = [];
    const stats = { files: 0, agents: 0, loaded: 0, restricted: 0, byFormat: new Map<string, number>() };
    for (let i = 0; i < COUNT; i++) {
      const caseSeed = prng.int(0, 2 ** 31);
      const file = generateAgentFile(new Prng(caseSeed));
      stats.files++;
      stats.byFormat.set(file.format, (stats.byFormat.get(file.format) ?? 0) + 1);
      const readings = referenceReadings(file);
      let agents: Array<{ name: string; result: LoadResult }>;
      try {
        agents = load(file);
      } catch (error) {
        failures.push(`seed ${caseSeed} (${file.format}): threw ${(error as Error).stack}\n${file.text}`);
        continue;
      }
      for (const { name, result } of agents) {
        stats.agents++;
        if (result.diagnostics.some((d) => d.message.startsWith("internal error")))
          failures.push(
            `seed ${caseSeed} (${file.format}): ${result.diagnostics.map((d) => d.message).join("; ")}`,
          );
        const definition = result.definition;
        if (definition === undefined) continue;
        stats.loaded++;
        if (
          definition.tools !== undefined ||
          definition.permission !== undefined ||
          definition.disallowedTools !== undefined
        )
          stats.restricted++;
        const problems = widenings(definition, readings.get(name));
        if (problems.length > 0)
          failures.push(
            `seed ${caseSeed} (${file.format}, agent ${JSON.stringify(name)}): ${problems.join("; ")}\n${file.text}${
              file.roleFiles === undefined ? "" : `\n--- role files: ${JSON.stringify(file.roleFiles)}`
            }`,
          );
      }
    }
    console.log(
      `fuzz: ${stats.files} files (${[...stats.byFormat].map(([f, n]) => `${f} ${n}`).join(", ")}), ` +
        `${stats.agents} agents, ${stats.loaded} loaded, ${stats.restricted} of them restricted; ${failures.length} failures`,
    );
    if (process.env.FUZZ_DUMP !== undefined)
      writeFileSync(process.env.FUZZ_DUMP, failures.join("\n\n=====\n"));
    expect(failures.slice(0, 5), `${failures.length} failures`).toEqual([]);
    // The test must have exercised real restrictions, not only files that fail to load.
    expect(stats.files).toBeGreaterThanOrEqual(10_000);
    expect(stats.loaded).toBeGreaterThan(stats.files / 5);
    expect(stats.restricted).toBeGreaterThan(stats.files / 10);
  });
});
