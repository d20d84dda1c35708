import type { AgentConfig } from "../agent/config.ts";
import type { Model } from "../model/model.ts";
import { builtinTools } from "../tools/builtin.ts";
import { nodeOperations } from "../tools/node-operations.ts";
import type { AnyTool } from "../tools/tool.ts";
import type { Settings } from "./config/resolve-settings.ts";

export interface WireAgentOptions {
  workspace: string;
  model: Model;
  systemPrompt: string;
  settings: Settings;
  /** The permission gate (`createPermissionGate`). */
  ask: NonNullable<AgentConfig["ask"]>;
}

/** The root agent of `agentry run`: built-in tools on the local machine, limits from the settings. */
export function wireAgent(options: WireAgentOptions): AgentConfig {
  const { settings } = options;
  let tools = builtinTools();
  if (settings.bashTimeoutSeconds !== undefined) {
    const seconds = settings.bashTimeoutSeconds;
    tools = tools.map((tool) => (tool.name === "bash" ? withDefaultTimeout(tool, seconds) : tool));
  }
  return {
    name: "main",
    model: options.model,
    systemPrompt: options.systemPrompt,
    tools,
    maxTurns: settings.maxTurns.value,
    workspace: options.workspace,
    ops: nodeOperations,
    agentPath: ["main"],
    depth: 0,
    ask: options.ask,
    toolOutputLimit: settings.toolOutputLimit,
  };
}

/** `bashTimeoutSeconds` from config: the timeout a bash call gets when the model does not pass one. */
function withDefaultTimeout(tool: AnyTool, seconds: number): AnyTool {
  return {
    ...tool,
    execute: (args, ctx) =>
      tool.execute(
        typeof args === "object" && args !== null && !("timeout" in args && args.timeout !== undefined)
          ? { ...args, timeout: seconds }
          : args,
        ctx,
      ),
  };
}
