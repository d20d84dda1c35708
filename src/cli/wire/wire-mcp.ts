import type { Hooks } from "../../agent/hooks.ts";
import type { McpClientFeatures } from "../../mcp/client-features.ts";
import type { McpServerSet } from "../../mcp/mcp-servers.ts";
import { expandServerConfig, type McpServerConfig } from "../../mcp/server-config.ts";
import type { AnyTool } from "../../tools/tool.ts";
import type { CliIo } from "../io.ts";

/**
 * Starts the configured MCP servers of a run (config files and `--mcp-config`) and returns their
 * tools, or `undefined` when none is configured (the MCP client is then never loaded). A server
 * that fails is a warning on stderr and the run goes on without its tools; a config that cannot be
 * expanded (a missing `${VAR}`) is a usage error. Call `close()` when the run ends.
 */
export async function wireMcp(
  servers: Record<string, McpServerConfig>,
  options: {
    workspace: string;
    io: CliIo;
    signal?: AbortSignal;
    values?: Record<string, string>;
    features?: McpClientFeatures;
  },
): Promise<McpServerSet | undefined> {
  if (Object.keys(servers).length === 0) return undefined;
  // Settings' `env` values reach the servers' processes as they reach commands (the servers' own `env` wins).
  const env = { ...options.io.env, ...options.values };
  const expanded = expandServers(servers, env);
  const { openMcpServers } = await import("../../mcp/mcp-servers.ts");
  const set = await openMcpServers(expanded, {
    cwd: options.workspace,
    env,
    ...(options.signal === undefined ? {} : { signal: options.signal }),
    ...(options.features === undefined ? {} : { features: options.features }),
  });
  for (const failure of set.failures) {
    options.io.stderr.write(
      `warning: MCP server "${failure.server}" is not available, the run goes on without its tools: ${failure.message}\n`,
    );
  }
  return set;
}

/** `${VAR}` expanded in every server's config; a variable that is not set is a usage error (exit 2). */
export function expandServers(
  servers: Record<string, McpServerConfig>,
  env: Record<string, string | undefined>,
): Record<string, McpServerConfig> {
  const expanded: Record<string, McpServerConfig> = {};
  for (const [name, config] of Object.entries(servers)) {
    expanded[name] = expandServerConfig(name, config, env);
  }
  return expanded;
}

/** The system prompt section with the instructions of the servers that give some. */
export function mcpInstructions(set: McpServerSet | undefined): string | undefined {
  const parts = (set?.servers ?? []).flatMap((server) =>
    server.instructions?.trim() ? [`## ${server.name}\n\n${server.instructions.trim()}`] : [],
  );
  return parts.length === 0 ? undefined : `# MCP servers\n\n${parts.join("\n\n")}`;
}

/**
 * Follows the servers' `notifications/tools/list_changed` for an agent that started with `initial` of
 * their tools (those alone: its other tools are none of this hook's business): before each model call, tools a server added are offered too and tools it dropped are
 * hidden. `visible` applies the agent's rules (a tool they deny is never offered).
 */
export function mcpToolChanges(
  set: McpServerSet,
  initial: readonly AnyTool[],
  visible: (tools: readonly AnyTool[]) => AnyTool[],
): Hooks {
  const had = new Set(initial.map((tool) => tool.name));
  return {
    beforeModelCall() {
      const now = visible(set.currentTools());
      const names = new Set(now.map((tool) => tool.name));
      const extraTools = now.filter((tool) => !had.has(tool.name));
      const hiddenTools = [...had].filter((name) => !names.has(name));
      if (extraTools.length === 0 && hiddenTools.length === 0) return undefined;
      return { extraTools, hiddenTools };
    },
  };
}
