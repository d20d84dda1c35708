import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type { McpServerConfig } from "../../src/mcp/server-config.ts";

/**
 * The MCP project's reference server, `@modelcontextprotocol/server-everything` (a devDependency), over
 * stdio in its own process: every feature of the protocol, as real clients meet it.
 */
export function serverEverythingConfig(): McpServerConfig {
  const manifest = createRequire(import.meta.url).resolve(
    "@modelcontextprotocol/server-everything/package.json",
  );
  return { command: process.execPath, args: [join(dirname(manifest), "dist", "index.js"), "stdio"] };
}
