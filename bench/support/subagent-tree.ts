import type { AgentConfig } from "../../src/agent/config.ts";
import { AgentRegistry } from "../../src/agents/agent-registry.ts";
import { builtinAgents } from "../../src/agents/builtin-agents.ts";
import type { Model } from "../../src/model/model.ts";
import type { ModelLimiters } from "../../src/model/model-limiters.ts";
import { createModel } from "../../src/model/registry.ts";
import { DEFAULT_RULES } from "../../src/permissions/defaults.ts";
import type { SubagentLimits } from "../../src/subagents/tree/limits.ts";
import type { SubagentRuntime } from "../../src/subagents/tree/subagent-runtime.ts";
import { attachSubagents } from "../../src/subagents/tree/with-subagents.ts";
import { builtinTools } from "../../src/tools/builtin.ts";
import { nodeOperations } from "../../src/tools/node-operations.ts";
import type { AnyTool } from "../../src/tools/tool.ts";

export const ROOT_PROMPT = "You are the root agent of a benchmark. Delegate where it helps.";

/**
 * The real Anthropic adapter (`createModel`, AI SDK provider, SSE parsing) pointed at the test model
 * server, through `limiters` as `agentry run` wires it; no retries unless asked, so a fault shows
 * instead of being hidden in a backoff.
 */
export function serverModel(
  anthropicBaseUrl: string,
  options: { limiters?: ModelLimiters; retries?: number } = {},
): Model {
  return createModel(
    "anthropic:claude-sonnet-4-5",
    {
      anthropic: { apiKey: "bench-key", baseUrl: anthropicBaseUrl },
      retry: { maxRetries: options.retries ?? 0 },
    },
    {},
    options.limiters === undefined ? {} : { limiters: options.limiters },
  );
}

export interface TreeOptions {
  workspace: string;
  model: Model;
  limits?: Partial<SubagentLimits>;
  tools?: AnyTool[];
  systemPrompt?: string;
}

/** A root agent with the built-in tools and the `task` tool, wired as `agentry run` wires it (bypass mode). */
export function subagentTree(options: TreeOptions): { config: AgentConfig; runtime: SubagentRuntime } {
  const tools = options.tools ?? builtinTools();
  const root: AgentConfig = {
    name: "main",
    model: options.model,
    systemPrompt: options.systemPrompt ?? ROOT_PROMPT,
    tools,
    workspace: options.workspace,
    ops: nodeOperations,
    agentPath: ["main"],
    depth: 0,
  };
  return attachSubagents(root, {
    registry: new AgentRegistry({ definitions: builtinAgents() }),
    createModel: () => options.model,
    baseTools: () => tools,
    permission: { rules: DEFAULT_RULES, mode: "bypass" },
    ...(options.limits === undefined ? {} : { limits: options.limits }),
    onWarning: (message) => process.stderr.write(`bench: runtime warning: ${message}\n`),
  });
}
