import type { AnyTool } from "../tools/tool.ts";
import { connectMcpServer, McpConnectError, type McpConnection } from "./mcp-connection.ts";
import { mcpTool } from "./mcp-tool.ts";
import { hashedMcpToolName, mcpToolName } from "./mcp-tool-name.ts";
import type { McpServerConfig } from "./server-config.ts";

export const DEFAULT_CONNECT_TIMEOUT_MS = 30_000;
/** Like bash's maximum timeout. */
export const DEFAULT_TOOL_TIMEOUT_MS = 10 * 60_000;

/** A server that could not be started or listed; `message` says what happened and what to do. */
export interface McpFailure {
  server: string;
  message: string;
}

export interface McpServerSet {
  /** Every tool of every server that started, as agentry tools named mcp__<server>__<tool>. */
  tools: AnyTool[];
  /** Servers that could not be started or listed; the run goes on without their tools. */
  failures: McpFailure[];
  /** Per server that connected: its name, its tool names, the server's `instructions` if any. */
  servers: Array<{ name: string; tools: string[]; instructions?: string }>;
  /** Closes every connection (stdio servers' processes are ended, killed after a grace period). Idempotent. */
  close(): Promise<void>;
}

export interface OpenMcpServersOptions {
  /** The workspace: stdio servers run there unless their config says `cwd`. */
  cwd: string;
  /** The environment stdio servers inherit PATH, HOME and the like from (their config's `env` is added). */
  env: Record<string, string | undefined>;
  /** Per server, for starting and listing its tools. Default 30 s. */
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Per tool call. Default 10 minutes. */
  toolTimeoutMs?: number;
  /** Sent to servers as the client's version. */
  clientVersion?: string;
}

/**
 * Connects to all servers in parallel and lists their tools. Configs are used as given: expand `${VAR}`
 * first (`expandServerConfig`). Never throws for one server's failure: it lands in `failures` and the
 * other servers' tools still work. Call `close()` when the session (or subagent) ends.
 */
export async function openMcpServers(
  servers: Record<string, McpServerConfig>,
  options: OpenMcpServersOptions,
): Promise<McpServerSet> {
  const toolTimeoutMs = options.toolTimeoutMs ?? DEFAULT_TOOL_TIMEOUT_MS;
  const attempts = await Promise.all(
    Object.entries(servers).map(async ([name, config]) => {
      try {
        const connected = await connectMcpServer(name, config, {
          cwd: options.cwd,
          env: options.env,
          timeoutMs: options.timeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
          signal: options.signal,
          clientVersion: options.clientVersion ?? "0.0.0",
        });
        return { name, connected };
      } catch (error) {
        const message =
          error instanceof McpConnectError
            ? error.message
            : `could not be started: ${error instanceof Error ? error.message : String(error)}`;
        return { name, failure: { server: name, message } };
      }
    }),
  );

  const set: Omit<McpServerSet, "close"> = { tools: [], failures: [], servers: [] };
  const connections: McpConnection[] = [];
  const taken = new Set<string>();
  for (const attempt of attempts) {
    if (attempt.failure !== undefined) {
      set.failures.push(attempt.failure);
      continue;
    }
    const { connection, tools, instructions } = attempt.connected;
    connections.push(connection);
    const names: string[] = [];
    for (const info of tools) {
      const name = uniqueName(attempt.name, info.name, taken);
      if (name === undefined) continue;
      names.push(name);
      set.tools.push(mcpTool({ name, info, connection, timeoutMs: toolTimeoutMs, serverTools: () => names }));
    }
    set.servers.push({ name: attempt.name, tools: names, ...(instructions ? { instructions } : {}) });
  }

  let closing: Promise<void> | undefined;
  return {
    ...set,
    close() {
      closing ??= Promise.all(connections.map((connection) => connection.close())).then(() => {});
      return closing;
    },
  };
}

/** The plain name, or the hashed one when that is taken; undefined for a tool listed twice. */
function uniqueName(server: string, tool: string, taken: Set<string>): string | undefined {
  for (const name of [mcpToolName(server, tool), hashedMcpToolName(server, tool)]) {
    if (taken.has(name)) continue;
    taken.add(name);
    return name;
  }
  return undefined;
}
