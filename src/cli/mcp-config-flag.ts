import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { parse as parseToml } from "smol-toml";
import { parseJsonc as parseJsoncText } from "../agents/loaders/jsonc.ts";
import { type McpServerConfig, mcpServersSchema } from "../mcp/server-config.ts";
import { errorMessage } from "../text/error-message.ts";
import { formatConfigIssues } from "./config/format-issues.ts";
import { fromClaudeMcp, fromCodexMcp, fromOpenCodeMcp, type PeerServers } from "./config/peers/peer-mcp.ts";
import { UsageError } from "./errors.ts";

/**
 * The servers of `--mcp-config` values: each a file or a JSON string, in any of the peers' forms —
 * `{ "mcpServers": { name: config } }` (Claude Code's `.mcp.json`), OpenCode's `opencode.json` (`mcp`),
 * Codex's `config.toml` (`[mcp_servers.name]`) — or the map itself. Later values override earlier ones
 * by server name.
 */
export async function loadMcpConfigFlags(
  values: readonly string[],
  cwd: string,
): Promise<Record<string, McpServerConfig>> {
  const servers: Record<string, McpServerConfig> = {};
  for (const value of values) Object.assign(servers, await loadOne(value, cwd));
  return servers;
}

async function loadOne(value: string, cwd: string): Promise<Record<string, McpServerConfig>> {
  const inline = value.trimStart().startsWith("{");
  const label = inline ? "--mcp-config (JSON)" : `--mcp-config ${value}`;
  let text = value;
  if (!inline) {
    try {
      text = await readFile(resolve(cwd, value), "utf8");
    } catch (error) {
      throw new UsageError(`${label}: cannot read the file: ${errorMessage(error)}`, { cause: error });
    }
  }
  // Codex keeps its servers in TOML (`[mcp_servers.name]`); the others in JSON.
  if (!inline && value.endsWith(".toml"))
    return peerServers(label, fromCodexMcp(tomlTable(text, label).mcp_servers));
  const data = parseJsonc(text, label);
  if (isObject(data) && "mcpServers" in data) return peerServers(label, fromClaudeMcp(data));
  // OpenCode's opencode.json: `mcp` with `type: local | remote`.
  if (isObject(data) && "mcp" in data) return peerServers(label, fromOpenCodeMcp(data.mcp));
  const parsed = mcpServersSchema.safeParse(data);
  if (!parsed.success) throw new UsageError(formatConfigIssues(label, parsed.error.issues, mcpServersSchema));
  return parsed.data;
}

/** A peer file's servers; one that cannot be taken is an error here: the flag named it on purpose. */
function peerServers(label: string, found: PeerServers): Record<string, McpServerConfig> {
  if (found.notes.length > 0) throw new UsageError(found.notes.map((note) => `${label}: ${note}`).join("\n"));
  return found.servers;
}

function parseJsonc(text: string, label: string): unknown {
  try {
    return parseJsoncText(text.startsWith("\uFEFF") ? text.slice(1) : text);
  } catch (error) {
    throw new UsageError(`${label}: ${errorMessage(error)}`, { cause: error });
  }
}

function tomlTable(text: string, label: string): Record<string, unknown> {
  try {
    return parseToml(text);
  } catch (error) {
    throw new UsageError(`${label}: invalid TOML: ${errorMessage(error).split("\n")[0]}`, { cause: error });
  }
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);
