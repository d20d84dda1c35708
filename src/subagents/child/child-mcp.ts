import type { McpServerSet } from "../../mcp/mcp-servers.ts";
import { expandServerConfig, type McpServerConfig, mcpServerConfigSchema } from "../../mcp/server-config.ts";
import { visibleTools } from "../../permissions/derive.ts";
import { wildcardMatch } from "../../permissions/wildcard.ts";
import { errorMessage } from "../../text/error-message.ts";
import type { AnyTool } from "../../tools/tool.ts";
import type { LocalChild } from "./local-child.ts";

/** The MCP servers a child's definition declares inline, running for one activation of the child. */
export interface ChildMcp {
  /** Their tools, minus those the child's `disallowedTools` or rules refuse. */
  tools: AnyTool[];
  close(): Promise<void>;
}

/**
 * Starts the servers of the child's `mcpServers` entries that carry a `config` (entries with a name
 * alone refer to the run's servers, whose tools the child picks from its parent's). They run in the
 * child's workspace and stop when the activation ends. A server that cannot start, or an entry that is
 * not a valid server config, is a warning, and the child goes on without its tools.
 */
export async function openChildMcp(
  child: Pick<LocalChild, "spec" | "config" | "rules" | "workspace" | "mcp">,
  signal: AbortSignal,
  warn: (message: string) => void,
): Promise<ChildMcp | undefined> {
  const name = child.spec.agent.name;
  const label = `subagent ${child.config.agentPath?.join("/") ?? name}`;
  const servers: Record<string, McpServerConfig> = {};
  for (const entry of child.mcp?.servers ?? []) {
    if (entry.config === undefined) continue;
    const parsed = mcpServerConfigSchema.safeParse(entry.config);
    if (!parsed.success) {
      const problems = parsed.error.issues.map((issue) => issue.message).join("; ");
      warn(`${label}: MCP server "${entry.name}" of agent "${name}" is invalid: ${problems}`);
      continue;
    }
    try {
      servers[entry.name] = expandServerConfig(entry.name, parsed.data, process.env);
    } catch (error) {
      warn(`${label}: ${errorMessage(error)}`);
    }
  }
  if (Object.keys(servers).length === 0) return undefined;
  const { openMcpServers } = await import("../../mcp/mcp-servers.ts");
  const set: McpServerSet = await openMcpServers(servers, {
    cwd: child.workspace.path,
    env: process.env,
    signal,
  });
  for (const failure of set.failures)
    warn(`${label}: MCP server "${failure.server}" is not available: ${failure.message}`);
  const disallowed = child.mcp?.disallowedTools ?? [];
  const allowed = set.tools.filter(
    (tool) => !disallowed.some((pattern) => wildcardMatch(pattern, tool.name)),
  );
  return { tools: visibleTools(allowed, child.rules), close: () => set.close() };
}
