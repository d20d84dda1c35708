import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { type McpServerConfig, mcpServersSchema } from "../mcp/server-config.ts";
import { formatConfigIssues } from "./config/format-issues.ts";
import { parseJsonText } from "./config/load-config.ts";
import { UsageError } from "./errors.ts";

/**
 * The servers of `--mcp-config` values: each a JSON file or a JSON string, holding
 * `{ "mcpServers": { name: config } }` (Claude Code's `.mcp.json` format) or the map itself. Later
 * values override earlier ones by server name.
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
      const reason = error instanceof Error ? error.message : String(error);
      throw new UsageError(`${label}: cannot read the file: ${reason}`, { cause: error });
    }
  }
  const data = parseJsonText(text, label);
  const map =
    typeof data === "object" && data !== null && "mcpServers" in data
      ? (data as { mcpServers: unknown }).mcpServers
      : data;
  const parsed = mcpServersSchema.safeParse(map);
  if (!parsed.success) throw new UsageError(formatConfigIssues(label, parsed.error.issues, mcpServersSchema));
  return parsed.data;
}
