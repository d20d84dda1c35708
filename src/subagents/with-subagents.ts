import type { AgentConfig } from "../agent/config.ts";
import { visibleTools } from "../permissions/derive.ts";
import type { CallerScope } from "./caller-scope.ts";
import { spawnableAgents } from "./spawnable-agents.ts";
import { type SubagentOptions, SubagentRuntime } from "./subagent-runtime.ts";
import { createTaskTool } from "./task-tool.ts";

/**
 * Gives a root agent the `task` tool (when it may spawn: below the depth limit, `task` not denied,
 * some agent to offer). One `SubagentRuntime` is shared by the whole tree it grows. The root's `ask`
 * defaults to the runtime's gate, so the root and its children share "always" approvals.
 */
export function withSubagents(rootConfig: AgentConfig, options: SubagentOptions): AgentConfig {
  return attachSubagents(rootConfig, options).config;
}

/** `withSubagents`, also returning the runtime (limits, counts, the children by task_id). */
export function attachSubagents(
  rootConfig: AgentConfig,
  options: SubagentOptions,
): { config: AgentConfig; runtime: SubagentRuntime } {
  const runtime: SubagentRuntime = new SubagentRuntime(options, rootConfig.workspace, (caller) =>
    createTaskTool(runtime, caller),
  );
  const ownTools = rootConfig.tools.filter((tool) => tool.name !== "task");
  const scope: CallerScope = {
    tools: ownTools,
    gate: runtime.gate,
    model: rootConfig.model,
    ops: rootConfig.ops,
    ...(rootConfig.toolOutputLimit === undefined ? {} : { toolOutputLimit: rootConfig.toolOutputLimit }),
  };
  const rules = runtime.gate.rules;
  const maySpawn =
    (rootConfig.depth ?? 0) < runtime.limits.maxDepth &&
    visibleTools([{ name: "task" }], rules).length > 0 &&
    spawnableAgents(runtime.registry, rules).length > 0;
  const config: AgentConfig = {
    ...rootConfig,
    tools: maySpawn ? [...ownTools, createTaskTool(runtime, scope)] : ownTools,
    ask: rootConfig.ask ?? runtime.gate,
  };
  return { config, runtime };
}
