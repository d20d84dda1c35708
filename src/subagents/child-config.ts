import { readFileSync } from "node:fs";
import type { CompactionOptions } from "../agent/compaction/compaction.ts";
import { compactionHooks } from "../agent/compaction/compaction-hooks.ts";
import type { AgentConfig } from "../agent/config.ts";
import type { Hooks } from "../agent/hooks.ts";
import type { Session } from "../agent/session/session.ts";
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

/**
 * The project's instructions (AGENTS.md, CLAUDE.md …) a child gets as its parent has them: built by the
 * composition root (`src/instructions/`) and passed in through the runtime's options. A definition
 * with `projectInstructions: false` gets none; a remote child never does (its own server decides).
 */
export interface ChildInstructions {
  /** The system prompt's section, the same as the root's (`""`: no instruction file). */
  section: string;
  /** Hooks that add a folder's own instruction files when the child first works there, in `workspace`. */
  hooks?: (workspace: string) => Hooks;
}

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
  /** The project's instructions, for every child whose definition does not opt out. */
  instructions?: ChildInstructions;
  /** Hooks every child of the tree gets, first among its hooks (`SubagentOptions.childHooks`). */
  childHooks?: ChildHooksFactory;
}

/** Who a child is, for the hooks the tree gives it (Claude Code hooks, preloaded skills …). */
export interface ChildHookScope {
  definition: AgentDefinition;
  path: readonly string[];
  depth: number;
}

export type ChildHooksFactory = (child: ChildHookScope) => Hooks[];

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
  const instructions = definition.projectInstructions === false ? undefined : deps.instructions;
  const config: AgentConfig = {
    name: definition.name,
    model,
    systemPrompt: childSystemPrompt(definition, workspace.path, instructions?.section),
    tools: kit ? [...own.tools, ...kit.tools] : own.tools,
    hooks: [
      ...(deps.childHooks?.({ definition, path, depth }) ?? []),
      ...(kit ? [kit.hooks] : []),
      // After the others (the executor puts its mailbox first), so the messages they inject are measured.
      ...(deps.compaction ? [compactionHooks(deps.compaction)] : []),
      // After the compaction, so a folder's files are added again once it summarized them away.
      ...(instructions?.hooks ? [instructions.hooks(workspace.path)] : []),
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
 * then what its file asked for and did not get (so it does not look for tools that are not there),
 * then the project's instructions (`ChildInstructions.section`, the same as its parent's: none when
 * it has none, so a child's prompt without instruction files is what it always was).
 */
export function childSystemPrompt(
  definition: Pick<AgentDefinition, "prompt" | "withheld">,
  workspace: string,
  instructions = "",
): string {
  const preamble = PREAMBLE.replace("{{workspace}}", workspace);
  const withheld =
    definition.withheld === undefined || definition.withheld.length === 0
      ? ""
      : `Not available to you, though your definition asks for it:\n${definition.withheld.map((note) => `- ${note}`).join("\n")}`;
  return [definition.prompt.trim(), preamble, withheld, instructions.trim()]
    .filter((part) => part !== "")
    .join("\n\n");
}
