import { compactionHooks } from "../../agent/compaction/compaction-hooks.ts";
import type { AgentConfig } from "../../agent/config.ts";
import { visibleTools } from "../../permissions/derive.ts";
import { isSpawnTool } from "../child/child-config.ts";
import { spawnableAgents } from "../spawn/spawnable-agents.ts";
import type { CallerScope } from "./caller-scope.ts";
import { type SubagentOptions, SubagentRuntime } from "./subagent-runtime.ts";

/**
 * Gives a root agent the spawn tools (`task` and the `task_*` family, when it may spawn: below the
 * depth limit, `task` not denied, some agent to offer) and the hooks that deliver its children's
 * notifications; with `options.compaction`, it and every child compact automatically. One
 * `SubagentRuntime` is shared by the whole tree it grows. The root's `ask` defaults to the runtime's
 * gate, so the root and its children share "always" approvals.
 */
export function withSubagents(rootConfig: AgentConfig, options: SubagentOptions): AgentConfig {
  return attachSubagents(rootConfig, options).config;
}

/**
 * `withSubagents`, also returning the runtime (limits, the children by task_id, the TaskStore). Call
 * `runtime.shutdown()` when the root's run is over, so no child outlives it unrecorded.
 */
export function attachSubagents(
  rootConfig: AgentConfig,
  options: SubagentOptions,
): { config: AgentConfig; runtime: SubagentRuntime } {
  const runtime = new SubagentRuntime(options, rootConfig.workspace);
  const ownTools = rootConfig.tools.filter((tool) => !isSpawnTool(tool.name));
  const scope: CallerScope = {
    tools: ownTools,
    gate: runtime.gate,
    model: rootConfig.model,
    ops: rootConfig.ops,
    ...(rootConfig.commands === undefined ? {} : { commands: rootConfig.commands }),
    ...(rootConfig.toolOutputLimit === undefined ? {} : { toolOutputLimit: rootConfig.toolOutputLimit }),
    ...(rootConfig.redact === undefined ? {} : { redact: rootConfig.redact }),
  };
  const rules = runtime.gate.rules;
  const maySpawn =
    (rootConfig.depth ?? 0) < runtime.limits.maxDepth &&
    visibleTools([{ name: "task" }], rules).length > 0 &&
    spawnableAgents(runtime.registry, rules).length > 0;
  const kit = maySpawn ? runtime.spawnKitFor(scope) : undefined;
  const config: AgentConfig = {
    ...rootConfig,
    tools: kit ? [...ownTools, ...kit.tools] : ownTools,
    hooks: [
      ...(rootConfig.hooks ?? []),
      ...(kit ? [kit.hooks] : []),
      // Last, so the notifications the spawn kit injects are measured.
      ...(options.compaction ? [compactionHooks(options.compaction)] : []),
    ],
    ask: rootConfig.ask ?? runtime.gate,
  };
  return { config, runtime };
}
