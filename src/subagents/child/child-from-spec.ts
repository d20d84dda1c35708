import { compactionHooks } from "../../agent/compaction/compaction-hooks.ts";
import type { AgentConfig } from "../../agent/config.ts";
import type { Hooks } from "../../agent/hooks.ts";
import type { Session } from "../../agent/session/session.ts";
import type { Redactor } from "../../agent/tool-calls/redact.ts";
import type { AgentDefinition } from "../../agents/definition.ts";
import type { Model } from "../../model/model.ts";
import type { PermissionGate } from "../../permissions/gate.ts";
import type { PermissionMode } from "../../permissions/modes.ts";
import type { Ruleset } from "../../permissions/types.ts";
import type { CommandPolicy } from "../../sandbox/policy.ts";
import { policyForChild } from "../../sandbox/policy-for-agent.ts";
import type { Operations } from "../../tools/operations.ts";
import type { AnyTool } from "../../tools/tool.ts";
import type { SpawnKit } from "../spawn/spawn-kit.ts";
import type { CallerScope } from "../tree/caller-scope.ts";
import {
  type BuildDeps,
  type ChildSetup,
  childSystemPrompt,
  describeLoopChild,
  isSpawnTool,
} from "./child-config.ts";
import type { LoopChildSpec } from "./child-spec.ts";
import { type ChildWorkspace, prepareChildWorkspace, workspaceOptions } from "./child-workspace.ts";
import type { LocalChild } from "./local-child.ts";

/**
 * The machine a child runs on, as the child sees it: its models (built with this machine's keys), the
 * tools its spec's names pick from, the gate its requests go through and the OS sandbox of its
 * commands — each this machine's own, so what a spec asks for is narrowed by where it runs, never
 * widened. In the parent's process these are the caller's (`inProcessHost`); on a queue worker, the
 * worker's (`src/queue/`).
 */
export interface ChildHost {
  /** Builds the model a spec names (`provider:model`). */
  model(id: string): Model;
  /** The tools a spec's names pick from. */
  tools(): readonly AnyTool[];
  /** The gate of a child with these rules and mode (its rules and mode are what the gate says). */
  gate(spec: LoopChildSpec): PermissionGate;
  /** How a child's commands run here: this machine's OS sandbox, derived from its rules. */
  commands(input: ChildCommandsInput): Promise<CommandPolicy | undefined>;
  ops: Operations;
  /** Hides this machine's secrets in tool output. */
  redact?: Redactor;
  /** The spawn tools and hooks of a child whose spec lets it start children; absent, it gets none. */
  spawnKit?(scope: CallerScope): SpawnKit;
  /** Hooks the tree gives a child run here before its own (Claude Code hooks, preloaded skills …). */
  treeHooks?(spec: LoopChildSpec): readonly Hooks[];
  /** Hooks every child run here gets in `workspace`, after its spawn kit's (compaction, instruction files). */
  hooks?(workspace: string): readonly Hooks[];
  /** MCP servers its definition declares inline (they never travel: their configs may hold secrets). */
  mcp?: LocalChild["mcp"];
}

export interface ChildCommandsInput {
  workspace: string;
  rules: Ruleset;
  mode: PermissionMode;
  /** The parent's commands were confined read-only: the child's must be too. */
  readOnly: boolean;
  allowedHosts?: readonly string[];
}

/**
 * Turns a spec into a child that runs here: its gate, the sandbox of its commands, its tools picked by
 * name from the host's (never a spawn tool but its own kit), its config and system prompt in
 * `workspace`, then its session through `openSession` (created, resumed, or filled with a job's
 * history). The workspace is finished again when the session cannot be opened.
 */
export async function childFromSpec(
  spec: LoopChildSpec,
  host: ChildHost,
  workspace: ChildWorkspace,
  openSession: () => Promise<Session>,
): Promise<LocalChild> {
  const gate = host.gate(spec);
  const { rules, mode } = gate;
  const commands = await host.commands({
    workspace: workspace.path,
    rules,
    mode,
    readOnly: spec.sandbox.readOnly,
    ...(spec.sandbox.allowedHosts === undefined ? {} : { allowedHosts: spec.sandbox.allowedHosts }),
  });
  const model = host.model(spec.model);
  const tools = pickTools(host.tools(), spec.tools);
  const { toolOutputLimit } = spec;
  const scope: CallerScope = {
    tools,
    gate,
    model,
    ops: host.ops,
    ...(commands === undefined ? {} : { commands }),
    ...(toolOutputLimit === undefined ? {} : { toolOutputLimit }),
    ...(host.redact === undefined ? {} : { redact: host.redact }),
  };
  const kit = spec.spawn ? host.spawnKit?.(scope) : undefined;
  const { limits, agent } = spec;
  const config: AgentConfig = {
    name: agent.name,
    model,
    systemPrompt: childSystemPrompt(agent, workspace.path, spec.instructions),
    tools: kit ? [...tools, ...kit.tools] : tools,
    // The executor puts its mailbox first; the host's (compaction, then a folder's instruction files, so
    // they are added again once it summarized them away) last, so what the others inject is measured.
    hooks: [
      ...(host.treeHooks?.(spec) ?? []),
      ...(kit ? [kit.hooks] : []),
      ...(host.hooks?.(workspace.path) ?? []),
    ],
    maxTurns: limits.maxTurns,
    limits: {
      ...(limits.stallTimeoutMs === undefined ? {} : { stallTimeoutMs: limits.stallTimeoutMs }),
      ...(limits.maxTokens === undefined ? {} : { maxTokens: limits.maxTokens }),
      ...(limits.maxDurationMs === undefined ? {} : { maxDurationMs: limits.maxDurationMs }),
    },
    workspace: workspace.path,
    ops: host.ops,
    ...(commands === undefined ? {} : { commands }),
    agentPath: spec.agentPath,
    depth: spec.depth,
    ask: gate,
    ...(toolOutputLimit === undefined ? {} : { toolOutputLimit }),
    ...(host.redact === undefined ? {} : { redact: host.redact }),
    ...(agent.temperature === undefined ? {} : { temperature: agent.temperature }),
  };
  let session: Session;
  try {
    session = await openSession();
  } catch (error) {
    await workspace.finish().catch(() => {});
    throw error;
  }
  return {
    spec,
    config,
    rules,
    mode,
    session,
    workspace,
    ...(host.mcp === undefined ? {} : { mcp: host.mcp }),
  };
}

/** The host's tools the names pick, in the names' order; a spawn tool never (a child gets its own kit). */
function pickTools(pool: readonly AnyTool[], names: readonly string[]): AnyTool[] {
  const byName = new Map<string, AnyTool>();
  for (const tool of pool) if (!byName.has(tool.name)) byName.set(tool.name, tool);
  return names.flatMap((name) => {
    const tool = isSpawnTool(name) ? undefined : byName.get(name);
    return tool === undefined ? [] : [tool];
  });
}

/**
 * Describes a child and builds it to run in this process (`agentry serve`'s conversations): its
 * workspace, its tools, gate and sandbox under its caller's, then its session through `openSession`.
 */
export async function buildChild(
  deps: BuildDeps,
  caller: CallerScope,
  setup: ChildSetup & { model: Model },
  openSession: () => Promise<Session>,
): Promise<LocalChild> {
  const spec = describeLoopChild(deps, caller, setup);
  const workspace = await prepareChildWorkspace(workspaceOptions(spec));
  return childFromSpec(
    spec,
    inProcessHost(deps, caller, setup.model, setup.definition),
    workspace,
    openSession,
  );
}

/**
 * A child's host in its parent's process: the caller's tools (then the run's base tools), the
 * caller's gate narrowed to the child's rules (asks reach the root's prompt), a sandbox derived from
 * the caller's and never wider, the model the parent resolved, the tree's spawn kit and compaction,
 * and the definition's inline MCP servers.
 */
export function inProcessHost(
  deps: Pick<BuildDeps, "baseTools" | "spawnKitFor" | "compaction" | "instructions" | "childHooks">,
  caller: CallerScope,
  model: Model,
  definition: AgentDefinition,
): ChildHost {
  const { compaction, childHooks } = deps;
  const instructions = definition.projectInstructions === false ? undefined : deps.instructions;
  return {
    model: () => model,
    tools: () => [...caller.tools, ...deps.baseTools()],
    gate: (spec) => caller.gate.withRules(spec.rules),
    commands: (input) => childCommands(caller.commands, input),
    ops: caller.ops,
    ...(caller.redact === undefined ? {} : { redact: caller.redact }),
    spawnKit: deps.spawnKitFor,
    ...(childHooks === undefined
      ? {}
      : { treeHooks: (spec) => childHooks({ definition, path: spec.agentPath, depth: spec.depth }) }),
    hooks: (workspace) => [
      ...(compaction === undefined ? [] : [compactionHooks(compaction)]),
      ...(instructions?.hooks === undefined ? [] : [instructions.hooks(workspace)]),
    ],
    ...(definition.mcpServers === undefined
      ? {}
      : { mcp: { servers: definition.mcpServers, disallowedTools: definition.disallowedTools ?? [] } }),
  };
}

/** A child's commands inherit its caller's environment list and run in a sandbox never wider than the caller's. */
async function childCommands(
  parent: CommandPolicy | undefined,
  input: ChildCommandsInput,
): Promise<CommandPolicy | undefined> {
  if (parent?.sandbox === undefined) return parent;
  return {
    env: parent.env,
    ...(parent.values === undefined ? {} : { values: parent.values }),
    sandbox: await policyForChild({
      parent: parent.sandbox,
      rules: input.rules,
      mode: input.mode,
      workspace: input.workspace,
      ...(input.allowedHosts === undefined ? {} : { allowedHosts: input.allowedHosts }),
    }),
  };
}
