import type { Tool as McpToolInfo } from "@modelcontextprotocol/client";
import { errorMessage } from "../text/error-message.ts";
import type { AnyTool } from "../tools/tool.ts";
import type { McpClientFeatures } from "./client-features.ts";
import { connectMcpServer, McpConnectError, type McpConnection } from "./mcp-connection.ts";
import type { McpContent } from "./mcp-result.ts";
import { mcpTool } from "./mcp-tool.ts";
import { hashedMcpToolName, mcpToolName } from "./mcp-tool-name.ts";
import { getPrompt, type McpPromptInfo, promptInfo } from "./prompts.ts";
import { resourceTools } from "./resource-tools.ts";
import { readResource } from "./resources.ts";
import type { McpServerConfig } from "./server-config.ts";

export const DEFAULT_CONNECT_TIMEOUT_MS = 30_000;
/** Like bash's maximum timeout. */
export const DEFAULT_TOOL_TIMEOUT_MS = 10 * 60_000;

/** A server that could not be started or listed; `message` says what happened and what to do. */
export interface McpFailure {
  server: string;
  message: string;
}

/** A server that connected. */
export interface McpServerInfo {
  name: string;
  /** Its tools' agentry names, as listed when it connected. */
  tools: string[];
  instructions?: string;
  /** Its prompts, as chat commands (`/mcp__<server>__<prompt>`). */
  prompts: McpPromptInfo[];
  /** Whether it offers resources. */
  resources: boolean;
}

export interface McpServerSet {
  /**
   * Every tool of every server that started, as agentry tools named mcp__<server>__<tool>, as listed
   * when they connected; with `list_mcp_resources` and `read_mcp_resource` when a server offers
   * resources. `currentTools()` follows later changes.
   */
  tools: AnyTool[];
  /** Servers that could not be started or listed; the run goes on without their tools. */
  failures: McpFailure[];
  servers: McpServerInfo[];
  /**
   * The tools now: a server that sends `notifications/tools/list_changed` has its tools listed again, and
   * the ones it added or dropped are added or dropped here (a tool that stays keeps its object).
   */
  currentTools(): AnyTool[];
  /** Called after `currentTools()` changed. Returns the function that stops it. */
  onToolsChanged(listener: () => void): () => void;
  /** Reads a resource of a server (an `@server:uri` mention); throws with a message for the user. */
  readResource(server: string, uri: string, signal?: AbortSignal): Promise<McpContent>;
  /** A server's prompt filled in, as a user turn (`/mcp__<server>__<prompt>`). */
  getPrompt(
    server: string,
    name: string,
    values: Record<string, string>,
    signal?: AbortSignal,
  ): Promise<{ text: string; images: McpContent["images"] }>;
  /** Closes every connection (stdio servers' processes are ended, killed after a grace period). Idempotent. */
  close(): Promise<void>;
}

export interface OpenMcpServersOptions {
  /** The workspace: stdio servers run there unless their config says `cwd`; the root servers are told of. */
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
  /** Elicitation and sampling for the servers (`McpClientFeatures`). */
  features?: McpClientFeatures;
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
  const listeners = new Set<() => void>();
  const live = new LiveTools(toolTimeoutMs, () => {
    for (const listener of listeners) listener();
  });
  const attempts = await Promise.all(
    Object.entries(servers).map(async ([name, config]) => {
      try {
        const connected = await connectMcpServer(name, config, {
          cwd: options.cwd,
          env: options.env,
          timeoutMs: options.timeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
          signal: options.signal,
          clientVersion: options.clientVersion ?? "0.0.0",
          ...(options.features === undefined ? {} : { features: options.features }),
          onToolsChanged: (tools) => live.relist(name, tools),
        });
        return { name, connected };
      } catch (error) {
        const message =
          error instanceof McpConnectError ? error.message : `could not be started: ${errorMessage(error)}`;
        return { name, failure: { server: name, message } };
      }
    }),
  );

  const failures: McpFailure[] = [];
  const infos: McpServerInfo[] = [];
  const connections = new Map<string, McpConnection>();
  const withResources = new Map<string, McpConnection>();
  for (const attempt of attempts) {
    if (attempt.failure !== undefined) {
      failures.push(attempt.failure);
      continue;
    }
    const { connection, tools, instructions, prompts, resources } = attempt.connected;
    connections.set(attempt.name, connection);
    if (resources) withResources.set(attempt.name, connection);
    const names = live.add(connection, tools);
    infos.push({
      name: attempt.name,
      tools: names,
      ...(instructions ? { instructions } : {}),
      prompts: prompts.map((prompt) => promptInfo(attempt.name, prompt)),
      resources,
    });
  }
  const extra =
    withResources.size === 0
      ? []
      : resourceTools(
          () => new Map([...withResources].filter(([, connection]) => connection.gone() === undefined)),
          toolTimeoutMs,
        );
  const connected = (server: string): McpConnection => {
    const connection = connections.get(server);
    if (connection === undefined) throw new Error(`no MCP server named "${server}" is connected`);
    const gone = connection.gone();
    if (gone !== undefined) throw new Error(`MCP server "${server}" is no longer running: ${gone}`);
    return connection;
  };

  let closing: Promise<void> | undefined;
  return {
    tools: [...live.current(), ...extra],
    failures,
    servers: infos,
    currentTools: () => [...live.current(), ...extra],
    onToolsChanged(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    readResource: (server, uri, signal) =>
      readResource(connected(server), uri, { timeoutMs: toolTimeoutMs, ...(signal ? { signal } : {}) }),
    getPrompt: (server, name, values, signal) =>
      getPrompt(connected(server), name, values, { timeoutMs: toolTimeoutMs, ...(signal ? { signal } : {}) }),
    close() {
      closing ??= Promise.all([...connections.values()].map((connection) => connection.close())).then(
        () => {},
      );
      return closing;
    },
  };
}

/** The MCP tools of a set as they are now, kept in the servers' order; names stay unique across changes. */
class LiveTools {
  private readonly byServer = new Map<string, { connection: McpConnection; tools: Map<string, AnyTool> }>();
  /** Lists that arrived before their server's first one was added (all servers connect first). */
  private readonly early = new Map<string, readonly McpToolInfo[]>();
  private readonly taken = new Set<string>();
  private readonly timeoutMs: number;
  private readonly changed: () => void;

  constructor(timeoutMs: number, changed: () => void) {
    this.timeoutMs = timeoutMs;
    this.changed = changed;
  }

  /** A server's tools as it listed them; returns their agentry names. */
  add(connection: McpConnection, listed: readonly McpToolInfo[]): string[] {
    const entry = { connection, tools: new Map<string, AnyTool>() };
    this.byServer.set(connection.server, entry);
    this.fill(entry, this.early.get(connection.server) ?? listed);
    return [...entry.tools.values()].map((tool) => tool.name);
  }

  /** The server listed its tools again: new ones are added, dropped ones removed. */
  relist(server: string, listed: readonly McpToolInfo[]): void {
    const entry = this.byServer.get(server);
    if (entry === undefined) {
      this.early.set(server, listed);
      return;
    }
    const before = [...entry.tools.keys()].join("\0");
    const still = new Set(listed.map((info) => info.name));
    for (const [name, tool] of entry.tools) {
      if (still.has(name)) continue;
      entry.tools.delete(name);
      this.taken.delete(tool.name);
    }
    this.fill(
      entry,
      listed.filter((info) => !entry.tools.has(info.name)),
    );
    if ([...entry.tools.keys()].join("\0") !== before) this.changed();
  }

  current(): AnyTool[] {
    return [...this.byServer.values()].flatMap((entry) => [...entry.tools.values()]);
  }

  private fill(
    entry: { connection: McpConnection; tools: Map<string, AnyTool> },
    listed: readonly McpToolInfo[],
  ): void {
    const server = entry.connection.server;
    const names = () => [...entry.tools.values()].map((tool) => tool.name);
    for (const info of listed) {
      const name = uniqueName(server, info.name, this.taken);
      if (name === undefined) continue;
      entry.tools.set(
        info.name,
        mcpTool({ name, info, connection: entry.connection, timeoutMs: this.timeoutMs, serverTools: names }),
      );
    }
  }
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
