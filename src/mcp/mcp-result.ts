import type { CallToolResult, ContentBlock } from "@modelcontextprotocol/client";
import { formatSize } from "../tools/format-size.ts";

/**
 * The text the model gets for an MCP tool result: text blocks as they are, one per line; images and
 * audio as a placeholder line with their type and size (the loop's tool results are text only);
 * embedded resources as their text, or `[resource <uri>]`; resource links as `[resource link <uri>]`.
 * `structuredContent` is sent as JSON only when no block carried text (servers are asked to mirror it in a
 * text block, and the model needs it once).
 */
export function mcpResultText(result: Pick<CallToolResult, "content" | "structuredContent">): string {
  const blocks = result.content ?? [];
  const parts = blocks.map(blockText);
  const hasText = blocks.some(
    (block) => block.type === "text" || (block.type === "resource" && "text" in block.resource),
  );
  if (!hasText && result.structuredContent !== undefined)
    parts.push(JSON.stringify(result.structuredContent));
  return parts.length === 0 ? "(the tool returned no content)" : parts.join("\n");
}

function blockText(block: ContentBlock): string {
  switch (block.type) {
    case "text":
      return block.text;
    case "image":
    case "audio":
      return `[${block.type} ${block.mimeType}, ${formatSize(Buffer.byteLength(block.data, "base64"))}; not shown: tool results are text only]`;
    case "resource": {
      const resource = block.resource;
      if ("text" in resource && typeof resource.text === "string") return resource.text;
      const size = "blob" in resource ? `, ${formatSize(Buffer.byteLength(resource.blob, "base64"))}` : "";
      const type = resource.mimeType === undefined ? "" : ` ${resource.mimeType}`;
      return `[resource ${resource.uri}${type}${size}]`;
    }
    case "resource_link":
      return `[resource link ${block.uri}${block.name === undefined ? "" : ` (${block.name})`}]`;
    default:
      return `[${(block as { type: string }).type} content]`;
  }
}
