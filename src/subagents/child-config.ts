import { readFileSync } from "node:fs";
import type { CompactionOptions } from "../agent/compaction.ts";
import { compactionHooks } from "../agent/compaction-hooks.ts";
import type { AgentConfig } from "../agent/config.ts";
import type { Session } from "../agent/session.ts";
import type { AgentDefinition } from "../agents/definition.ts";
import type { Model } from "../model/model.ts";
import type { PermissionMode } from "../permissions/modes.ts";
import type { Ruleset } from "../permissions/types.ts";
import type { CommandPolicy } from "../sandbox/policy.ts";
import { policyForChild } from "../sandbox/policy-for-agent.ts";
import type { AnyTool } from "../tools/tool.ts";
import type { CallerScope } from "./caller-scope.ts";
import { childRules } from "./child-rules.ts";
import { childTools } from "./child-tools.ts";
import { type ChildWorkspace, type ChildWorkspaceOptions, prepareChildWorkspace } from "./child-workspace.ts";
import type { SubagentLimits } from "./limits.ts";
import type { LocalChild } from "./local-child.ts";
import type { SpawnKit } from "./spawn-kit.ts";

const PREAMBLE = readFileSync(new URL("./child-preamble.md", import.meta.url), "utf8").trim();

/** What building a child takes from its tree. */
export interface BuildDeps {
  /** The run's base rules (defaults and config: the root's), under every child's own. */
  baseRules: Ruleset;
  /** The tools a definition's `tools` list picks from. */
  baseTools: () => AnyTool[];
  limits: Pick<SubagentLimits, "maxDepth" | "maxTurns" | "stallTimeoutMs" | "maxTokens" | "maxDurationMs">;
  /** The spawn tools and hooks of an agent of the tree (for a child below the depth limit). */
  spawnKitFor: (caller: CallerScope) => SpawnKit;
  warn: (message: string) => void;
  /** The tree's automatic compaction, which every child gets. */
  compaction?: CompactionOptions;
  /** Makes a child's workspace (default `prepareChildWorkspace`; a placement may make it elsewhere). */
  prepareWorkspace?: (options: ChildWorkspaceOptions) => Promise<ChildWorkspace>;
}

/** Who a child is: enough to build it the first time, and to rebuild it from its TaskRecord later. */
export interface ChildSetup {
  definition: AgentDefinition;
  model: Model;
  taskId: string;
  path: string[];
  depth: number;
  /** The caller's workspace, which a `shared` child works in. */
  parentWorkspace: string;
}

/**
 * Builds a child to run in this process: its workspace, rules, tools (its own spawn tools below the
 * depth limit) and config, then its session through `openSession` (created for a new child, resumed
 * for a restored one).
 */
export async function buildChild(
  deps: BuildDeps,
  caller: CallerScope,
  setup: ChildSetup,
  openSession: () => Promise<Session>,
): Promise<LocalChild> {
  const { definition, model, taskId, path, depth } = setup;
  // An unreadable permission or a workspace that cannot be made throws an AgentryError, which the
  // loop shows the model as it is.
  const rules = childRules(deps.baseRules, caller.gate.rules, definition);
  const workspace: ChildWorkspace = await (deps.prepareWorkspace ?? prepareChildWorkspace)({
    mode: definition.workspace?.mode ?? "shared",
    parentWorkspace: setup.parentWorkspace,
    agentName: definition.name,
    taskId,
    ...(definition.workspace?.path === undefined ? {} : { path: definition.workspace.path }),
  });
  const gate = caller.gate.withRules(rules);
  const commands = await childCommands(
    caller.commands,
    rules,
    gate.mode,
    workspace.path,
    definition.allowedHosts,
  );
  const baseTools = deps.baseTools();
  const own = childTools({
    definition,
    parentTools: caller.tools,
    baseTools,
    rules,
    mayNest: depth < deps.limits.maxDepth,
  });
  for (const server of missingMcpServers(definition, [...baseTools, ...caller.tools]))
    deps.warn(
      `agent "${definition.name}" names MCP server "${server}" in mcpServers, but no such server runs in this session, so ${path.join("/")} has none of its tools: configure it under "mcpServers" (agentry mcp list shows what runs)`,
    );
  const scope: CallerScope = {
    tools: own.tools,
    gate,
    model,
    ops: caller.ops,
    ...(commands === undefined ? {} : { commands }),
    ...(caller.toolOutputLimit === undefined ? {} : { toolOutputLimit: caller.toolOutputLimit }),
    ...(caller.redact === undefined ? {} : { redact: caller.redact }),
  };
  const kit = own.spawn ? deps.spawnKitFor(scope) : undefined;
  const { limits } = deps;
  const config: AgentConfig = {
    name: definition.name,
    model,
    systemPrompt: childSystemPrompt(definition, workspace.path),
    tools: kit ? [...own.tools, ...kit.tools] : own.tools,
    hooks: [
      ...(kit ? [kit.hooks] : []),
      // Last (the executor puts its mailbox first), so the messages the others inject are measured.
      ...(deps.compaction ? [compactionHooks(deps.compaction)] : []),
    ],
    maxTurns: definition.maxTurns ?? limits.maxTurns,
    limits: {
      stallTimeoutMs: limits.stallTimeoutMs,
      ...(limits.maxTokens === undefined ? {} : { maxTokens: limits.maxTokens }),
      ...(limits.maxDurationMs === undefined ? {} : { maxDurationMs: limits.maxDurationMs }),
    },
    workspace: workspace.path,
    ops: caller.ops,
    ...(commands === undefined ? {} : { commands }),
    agentPath: path,
    depth,
    ask: gate,
    ...(caller.toolOutputLimit === undefined ? {} : { toolOutputLimit: caller.toolOutputLimit }),
    ...(caller.redact === undefined ? {} : { redact: caller.redact }),
    ...(definition.temperature === undefined ? {} : { temperature: definition.temperature }),
  };
  let session: Session;
  try {
    session = await openSession();
  } catch (error) {
    await workspace.finish().catch(() => {});
    throw error;
  }
  return { definition, config, rules, mode: gate.mode, session, workspace };
}

/** A child's commands inherit its caller's environment list and run in a sandbox never wider than the caller's. */
async function childCommands(
  parent: CommandPolicy | undefined,
  rules: Ruleset,
  mode: PermissionMode,
  workspace: string,
  allowedHosts: readonly string[] | undefined,
): Promise<CommandPolicy | undefined> {
  if (parent?.sandbox === undefined) return parent;
  return {
    env: parent.env,
    ...(parent.values === undefined ? {} : { values: parent.values }),
    sandbox: await policyForChild({
      parent: parent.sandbox,
      rules,
      mode,
      workspace,
      ...(allowedHosts === undefined ? {} : { allowedHosts }),
    }),
  };
}

/** Servers a definition names without a config (references to the session's) that gave no tool here. */
function missingMcpServers(definition: AgentDefinition, pool: readonly { name: string }[]): string[] {
  return (definition.mcpServers ?? [])
    .filter((server) => server.config === undefined)
    .map((server) => server.name)
    .filter((name) => !pool.some((tool) => tool.name.startsWith(`mcp__${name}__`)));
}

/**
 * A child's system prompt: its definition's prompt, then the harness preamble naming its workspace,
 * then what its file asked for and did not get (so it does not look for tools that are not there).
 */
export function childSystemPrompt(
  definition: Pick<AgentDefinition, "prompt" | "withheld">,
  workspace: string,
): string {
  const preamble = PREAMBLE.replace("{{workspace}}", workspace);
  const withheld =
    definition.withheld === undefined || definition.withheld.length === 0
      ? ""
      : `Not available to you, though your definition asks for it:\n${definition.withheld.map((note) => `- ${note}`).join("\n")}`;
  return [definition.prompt.trim(), preamble, withheld].filter((part) => part !== "").join("\n\n");
}
