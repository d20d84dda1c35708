import { MCP_SERVER_NAME, type McpServerConfig, mcpServerConfigSchema } from "../../../mcp/server-config.ts";

/** MCP servers of a peer's file in agentry's form, and the entries that could not be taken, with why. */
export interface PeerServers {
  servers: Record<string, McpServerConfig>;
  notes: string[];
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * Claude Code's `.mcp.json` (`{"mcpServers": {name: {command, args, env} | {type: "http", url, headers}}}`),
 * `${VAR}` and `${VAR:-default}` expanded when the servers start. `type: "sse"` is deprecated and
 * not spoken here: such a server is left out, with a note.
 */
export function fromClaudeMcp(data: unknown): PeerServers {
  const servers = isObject(data) && isObject(data.mcpServers) ? data.mcpServers : {};
  return collect(Object.entries(servers), (name, entry) => {
    if (!isObject(entry)) return `server "${name}" is not an object`;
    if (entry.type === "sse")
      return `server "${name}" uses type "sse" (deprecated); use type "http" with its URL`;
    return entry;
  });
}

/**
 * OpenCode's `mcp`: `{name: {type: "local", command: [...], environment, enabled} | {type: "remote",
 * url, headers, enabled}}`. A server with `enabled: false` is left out, as OpenCode leaves it out.
 */
export function fromOpenCodeMcp(mcp: unknown): PeerServers {
  return collect(Object.entries(isObject(mcp) ? mcp : {}), (name, entry) => {
    if (!isObject(entry)) return `server "${name}" is not an object`;
    if (entry.enabled === false) return undefined;
    if (entry.type === "remote")
      return { type: "http", url: entry.url, ...(isObject(entry.headers) ? { headers: entry.headers } : {}) };
    const command = Array.isArray(entry.command) ? entry.command : [];
    if (command.length === 0 || !command.every((part) => typeof part === "string"))
      return `server "${name}": command must be a list of strings`;
    return {
      command: command[0],
      ...(command.length > 1 ? { args: command.slice(1) } : {}),
      ...(isObject(entry.environment) ? { env: entry.environment } : {}),
    };
  });
}

/** Codex's `[mcp_servers.<name>]`: `command`, `args`, `env`, `cwd`, or `url` (streamable HTTP) with headers. */
export function fromCodexMcp(table: unknown): PeerServers {
  return collect(Object.entries(isObject(table) ? table : {}), (name, entry) => {
    if (!isObject(entry)) return `server "${name}" is not a table`;
    if (entry.enabled === false) return undefined;
    if (typeof entry.url === "string")
      return {
        type: "http",
        url: entry.url,
        ...(isObject(entry.http_headers) ? { headers: entry.http_headers } : {}),
      };
    return {
      command: entry.command,
      ...(entry.args === undefined ? {} : { args: entry.args }),
      ...(entry.env === undefined ? {} : { env: entry.env }),
      ...(entry.cwd === undefined ? {} : { cwd: entry.cwd }),
    };
  });
}

/** Each entry through agentry's own schema: what it cannot read is a note, never a half-read server. */
function collect(
  entries: Array<[string, unknown]>,
  translate: (name: string, entry: unknown) => unknown,
): PeerServers {
  const result: PeerServers = { servers: {}, notes: [] };
  for (const [name, entry] of entries) {
    if (!MCP_SERVER_NAME.test(name)) {
      result.notes.push(`server "${name}": the name may hold only letters, digits and single "_" or "-"`);
      continue;
    }
    const translated = translate(name, entry);
    if (translated === undefined) continue;
    if (typeof translated === "string") {
      result.notes.push(translated);
      continue;
    }
    const parsed = mcpServerConfigSchema.safeParse(translated);
    if (parsed.success) result.servers[name] = parsed.data;
    else
      result.notes.push(`server "${name}": ${parsed.error.issues.map((issue) => issue.message).join("; ")}`);
  }
  return result;
}
