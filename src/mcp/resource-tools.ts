import { readFileSync } from "node:fs";
import { z } from "zod";
import { type AnyTool, defineTool, ToolError } from "../tools/tool.ts";
import type { McpConnection } from "./mcp-connection.ts";
import { listResources, type ResourceListing, readResource } from "./resources.ts";

const LIST_DESCRIPTION = readFileSync(new URL("./list-mcp-resources.md", import.meta.url), "utf8");
const READ_DESCRIPTION = readFileSync(new URL("./read-mcp-resource.md", import.meta.url), "utf8");

/** The servers that offer resources, by name, as they are now (a server that died is left out by the caller). */
export type ResourceServers = () => ReadonlyMap<string, McpConnection>;

/**
 * `list_mcp_resources` and `read_mcp_resource` (as Claude Code's ListMcpResources and ReadMcpResource,
 * and Codex's tools of the same names): the resources of the servers that offer any. Reading asks the
 * `read_mcp_resource` permission with the pattern `<server>:<uri>`; listing asks nothing.
 */
export function resourceTools(servers: ResourceServers, timeoutMs: number): AnyTool[] {
  const connection = (server: string): McpConnection => {
    const found = servers().get(server);
    if (found !== undefined) return found;
    const names = [...servers().keys()];
    throw new ToolError(
      `No MCP server named "${server}" offers resources. ${names.length > 0 ? `Servers with resources: ${names.join(", ")}.` : "None does."}`,
    );
  };
  const list = defineTool({
    name: "list_mcp_resources",
    description: LIST_DESCRIPTION,
    schema: z.object({ server: z.string().min(1).optional().describe("Only this server's.") }),
    async execute(args, ctx) {
      const chosen = args.server === undefined ? [...servers().values()] : [connection(args.server)];
      const listings = await Promise.all(
        chosen.map((server) =>
          listResources(server, { signal: ctx.signal, timeoutMs }).catch(
            (error: unknown) => `${server.server}: could not list its resources: ${server.describe(error)}`,
          ),
        ),
      );
      return listings
        .map((listing) => (typeof listing === "string" ? listing : formatListing(listing)))
        .join("\n\n");
    },
  });
  const read = defineTool({
    name: "read_mcp_resource",
    description: READ_DESCRIPTION,
    schema: z.object({
      server: z.string().min(1).describe("The MCP server's name."),
      uri: z.string().min(1).describe("The resource's URI."),
    }),
    async execute(args, ctx) {
      const server = connection(args.server);
      const pattern = `${args.server}:${args.uri}`;
      await ctx.ask({
        permission: "read_mcp_resource",
        patterns: [pattern],
        title: `read_mcp_resource ${pattern}`,
      });
      try {
        const { text, images } = await readResource(server, args.uri, { signal: ctx.signal, timeoutMs });
        return images.length === 0 ? text : { content: text, images };
      } catch (error) {
        if (ctx.signal.aborted) throw error;
        throw new ToolError(
          `MCP server "${args.server}" could not read ${args.uri}: ${server.describe(error)}`,
        );
      }
    },
  });
  return [list, read];
}

function formatListing(listing: ResourceListing): string {
  const lines = [`${listing.server}:`];
  if (listing.resources.length === 0 && listing.templates.length === 0) lines.push("  (no resources)");
  for (const resource of listing.resources) lines.push(`  ${resource.uri}${about(resource)}`);
  if (listing.templates.length > 0) lines.push("  templates (fill in the {…} parts):");
  for (const template of listing.templates) lines.push(`  ${template.uriTemplate}${about(template)}`);
  return lines.join("\n");
}

function about(item: { name: string; mimeType?: string; description?: string }): string {
  const type = item.mimeType === undefined ? "" : `, ${item.mimeType}`;
  const description = item.description === undefined ? "" : `: ${oneLine(item.description)}`;
  return ` (${item.name}${type})${description}`;
}

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > 200 ? `${flat.slice(0, 199)}…` : flat;
}
