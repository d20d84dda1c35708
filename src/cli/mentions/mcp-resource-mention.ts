import { errorMessage } from "../../text/error-message.ts";
import type { McpAccess } from "../prompt-attachments.ts";
import { MentionError, type MentionResolver } from "./mention.ts";

/**
 * `@server:uri`: an MCP resource of a connected server (Claude Code's `@github:repo://…`), its text
 * and images read through the server. A mention whose prefix is no connected server stays for the
 * next resolver (`@types/node`, `@note:today` …); a resource the server cannot give is refused.
 */
export function mcpResourceResolver(mcp: McpAccess | undefined): MentionResolver {
  return {
    kind: "mcp-resource",
    async resolve(mention, context) {
      // `@docs:file:///a.md.` ends a sentence: a URI ending in punctuation is the rarer reading.
      for (const target of [mention.trimmed, mention.target]) {
        const match = target === undefined ? null : /^([A-Za-z0-9_-]+):(.+)$/.exec(target);
        const server = match?.[1];
        const uri = match?.[2];
        if (server === undefined || uri === undefined) continue;
        if (!mcp?.servers.some((info) => info.name === server)) continue;
        try {
          const read = await mcp.readResource(server, uri, context.signal);
          return {
            parts: [
              { type: "text", text: `<resource server="${server}" uri="${uri}">\n${read.text}\n</resource>` },
              ...read.images,
            ],
            note: `${server}:${uri}${read.images.length > 0 ? ` (${read.images.length} image${read.images.length === 1 ? "" : "s"})` : ""}`,
          };
        } catch (error) {
          throw new MentionError(`${mention.text} is not inlined: ${errorMessage(error)}`);
        }
      }
      return undefined;
    },
  };
}
