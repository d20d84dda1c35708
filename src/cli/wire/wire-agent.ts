import type { AgentConfig } from "../../agent/config.ts";
import { createRedactor } from "../../agent/tool-calls/redact.ts";
import type { Model } from "../../model/model.ts";
import type { CommandPolicy } from "../../sandbox/policy.ts";
import { builtinTools } from "../../tools/builtin.ts";
import { nodeOperations } from "../../tools/node-operations.ts";
import type { AnyTool } from "../../tools/tool.ts";
import type { Settings } from "../config/resolve-settings.ts";

export interface WireAgentOptions {
  workspace: string;
  model: Model;
  systemPrompt: string;
  settings: Settings;
  /** The permission gate (`createPermissionGate`). */
  ask: NonNullable<AgentConfig["ask"]>;
  /** The process environment: secret-looking values in it are redacted from tool output. */
  env: Record<string, string | undefined>;
  /** Tools besides the built-ins (the MCP servers'). */
  extraTools?: readonly AnyTool[];
  /** How commands run (`wireCommands`). */
  commands: CommandPolicy;
}

/** The root agent of `agentry run`: built-in tools on the local machine (and `extraTools`), limits from the settings. */
export function wireAgent(options: WireAgentOptions): AgentConfig {
  const { settings } = options;
  const sandboxed = options.commands.sandbox !== undefined;
  const tools = [
    ...builtinTools({
      bash:
        settings.bashTimeoutSeconds === undefined
          ? { sandboxed }
          : { sandboxed, defaultTimeoutSeconds: settings.bashTimeoutSeconds },
    }),
    ...(options.extraTools ?? []),
  ];
  return {
    name: "main",
    model: options.model,
    systemPrompt: options.systemPrompt,
    tools,
    maxTurns: settings.maxTurns.value,
    workspace: options.workspace,
    ops: nodeOperations,
    commands: options.commands,
    agentPath: ["main"],
    depth: 0,
    ask: options.ask,
    toolOutputLimit: settings.toolOutputLimit,
    redact: createRedactor(options.env, configuredKeys(settings)),
  };
}

/** API keys written in config files are secrets too. */
function configuredKeys(settings: Settings): Record<string, string | undefined> {
  const { providers } = settings;
  const keys: Record<string, string | undefined> = {
    "providers.anthropic.apiKey": providers.anthropic?.apiKey,
    "providers.openai.apiKey": providers.openai?.apiKey,
  };
  // Values set for commands (Claude Code's settings `env` …) may be tokens too.
  for (const [name, value] of Object.entries(settings.env)) keys[`env.${name}`] = value;
  for (const [name, endpoint] of Object.entries(providers.openaiCompatible ?? {})) {
    keys[`providers.openaiCompatible.${name}.apiKey`] = endpoint.apiKey;
    for (const [header, value] of Object.entries(endpoint.headers ?? {}))
      keys[`providers.openaiCompatible.${name}.headers.${header}`] = value;
  }
  return keys;
}
