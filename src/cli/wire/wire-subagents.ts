import type { CompactionOptions } from "../../agent/compaction/compaction.ts";
import type { AgentConfig } from "../../agent/config.ts";
import { AgentRegistry } from "../../agents/agent-registry.ts";
import { type Diagnostic, hasErrors } from "../../agents/diagnostics.ts";
import type { LoadedAgents } from "../../agents/discover.ts";
import type { ModelLimiters } from "../../model/model-limiters.ts";
import type { PermissionGate } from "../../permissions/gate.ts";
import type {
  ChildHooksFactory,
  ChildInstructions,
  SubagentRuntime,
  TraceparentFor,
} from "../../subagents/index.ts";
import { attachSubagents } from "../../subagents/index.ts";
import type { ChildPlacement, DescendantCount } from "../../subagents/placement.ts";
import type { TaskStore } from "../../tasks/task-store.ts";
import type { Settings } from "../config/resolve-settings.ts";

export interface WireSubagentsOptions {
  workspace: string;
  /** The agent definitions of the workspace's files, confined by the folder's trust (`readProject`). */
  definitions: LoadedAgents;
  settings: Settings;
  gate: PermissionGate;
  env: Record<string, string | undefined>;
  /** `--agents` JSON: definitions that take precedence over every file. */
  agentsJson?: string;
  /** Problems of the subagent runtime (a heartbeat that failed, an MCP server an agent names …). */
  onWarning?: (message: string) => void;
  /** The run's model limiters: children's calls share them with the root's, per endpoint. */
  limiters?: ModelLimiters;
  /** Automatic compaction for the root and every child (`wireCompaction`); none when undefined. */
  compaction?: CompactionOptions;
  /** Where task records live (`wireFleet`; default: the workspace). */
  taskStore?: TaskStore;
  /** Where children run (`wireFleet`; default: this process). */
  placement?: ChildPlacement;
  /** Where the tree's descendants are counted (`wireFleet`: on the fleet's Redis; default: this process). */
  descendants?: DescendantCount;
  /** The project's instructions children get as the root has them (docs/instructions.md). */
  instructions?: ChildInstructions;
  /** Hooks each child gets (Claude Code hooks, preloaded skills). */
  childHooks?: ChildHooksFactory;
  /** The trace context a child carries to where it runs (the run's tracer). */
  traceparentFor?: TraceparentFor;
}

/** The agents a run can delegate to: built-ins, user and project files (`readProject`), then `--agents`. */
export function registryOf(definitions: LoadedAgents, agentsJson?: string): AgentRegistry {
  return agentsJson === undefined
    ? new AgentRegistry(definitions)
    : AgentRegistry.fromJson(agentsJson, definitions);
}

/**
 * Gives the root agent the `task` tool and a runtime shared by its whole tree. Children pick their tools
 * from the root's own tools, get models through the same provider settings, and ask through the root's
 * gate. Returns the agent-file diagnostics so the caller can point at `agentry agents check`.
 */
export async function wireSubagents(
  root: AgentConfig,
  options: WireSubagentsOptions,
): Promise<{ config: AgentConfig; runtime: SubagentRuntime; diagnostics: readonly Diagnostic[] }> {
  const registry = registryOf(options.definitions, options.agentsJson);
  const { createModel } = await import("../../model/registry.ts");
  const { settings, env } = options;
  const modelOptions = options.limiters === undefined ? {} : { limiters: options.limiters };
  const rootTools = root.tools;
  // The A2A client loads only when an agent has a url: most runs never call a remote agent.
  const remote = registry.list().some((definition) => definition.url !== undefined)
    ? (await import("../../remote/client/index.ts")).a2aPlacement({
        env,
        ...(settings.remoteTimeoutMs === undefined ? {} : { timeoutMs: settings.remoteTimeoutMs }),
      })
    : undefined;
  if (remote !== undefined) {
    const { describeFromCards } = await import("../../remote/client/index.ts");
    const warn = options.onWarning ?? ((message: string) => process.emitWarning(message));
    await describeFromCards(registry, (definition) => remote.agent(definition), warn);
  }
  const { config, runtime } = attachSubagents(root, {
    registry,
    createModel: (id) => createModel(id, settings.providers, env, modelOptions),
    baseTools: () => rootTools,
    permission: options.gate,
    limits: settings.subagents,
    ...(options.compaction === undefined ? {} : { compaction: options.compaction }),
    ...(options.onWarning === undefined ? {} : { onWarning: options.onWarning }),
    // A remote agent's child runs on its agent; any other on the fleet's queue, else in this process.
    placements: [remote, options.placement].filter((placement) => placement !== undefined),
    ...(options.taskStore === undefined ? {} : { taskStore: options.taskStore }),
    ...(options.descendants === undefined ? {} : { descendants: options.descendants }),
    ...(options.instructions === undefined ? {} : { instructions: options.instructions }),
    ...(options.childHooks === undefined ? {} : { childHooks: options.childHooks }),
    ...(options.traceparentFor === undefined ? {} : { traceparentFor: options.traceparentFor }),
  });
  return { config, runtime, diagnostics: registry.diagnostics };
}

/** One line for stderr when agent files have errors, or undefined. */
export function agentFileWarning(diagnostics: readonly Diagnostic[]): string | undefined {
  if (!hasErrors(diagnostics)) return undefined;
  const count = diagnostics.filter((d) => d.severity === "error").length;
  return `warning: ${count} agent file problem${count === 1 ? "" : "s"} (those files were skipped); run \`agentry agents check\` for details`;
}
