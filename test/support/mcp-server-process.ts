import { fileURLToPath } from "node:url";
import type { McpStdioServerConfig } from "../../src/mcp/server-config.ts";

export const MCP_SERVER_MAIN = fileURLToPath(new URL("./mcp-server-main.ts", import.meta.url));

/** A stdio config that runs the test MCP server (`mcp-server-main.ts`) with these switches. */
export function testServerConfig(...switches: string[]): McpStdioServerConfig {
  return { command: process.execPath, args: [MCP_SERVER_MAIN, ...switches] };
}
