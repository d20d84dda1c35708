import type { CallToolResult, ContentBlock } from "@modelcontextprotocol/client";
import { describeImage, imagePartOf, imageTooLarge, sniffImage } from "../model/images.ts";
import type { ImagePart } from "../model/messages.ts";
import { formatSize } from "../tools/format-size.ts";

/** What the model gets of an MCP tool's result (or a resource): text, and the images in it. */
export interface McpContent {
  text: string;
  images: ImagePart[];
}

/**
 * An MCP tool result for the model: text blocks as they are, one per line; each image as an image
 * (with a line naming it) when it is a PNG, JPEG, GIF or WebP small enough to send, else a line saying
 * why not; audio as a line (no provider agentry speaks takes audio); embedded resources as their text,
 * or their image, or `[resource <uri>]`; resource links as a line naming them and how to read them.
 * `structuredContent` is sent as JSON only when no block carried text (servers are asked to mirror it
 * in a text block, and the model needs it once). `server` names the server in those hints.
 */
export function mcpResultContent(
  result: Pick<CallToolResult, "content" | "structuredContent">,
  server: string,
): McpContent {
  const blocks = result.content ?? [];
  const images: ImagePart[] = [];
  const parts = blocks.map((block) => blockText(block, server, images));
  const hasText = blocks.some(
    (block) => block.type === "text" || (block.type === "resource" && "text" in block.resource),
  );
  if (!hasText && result.structuredContent !== undefined)
    parts.push(JSON.stringify(result.structuredContent));
  return { text: parts.length === 0 ? "(the tool returned no content)" : parts.join("\n"), images };
}

/** `mcpResultContent`'s text alone: what a tool result's text says, images included as their lines. */
export function mcpResultText(result: Pick<CallToolResult, "content" | "structuredContent">): string {
  return mcpResultContent(result, "this server").text;
}

function blockText(block: ContentBlock, server: string, images: ImagePart[]): string {
  switch (block.type) {
    case "text":
      return block.text;
    case "image":
      return mediaLine(block.data, block.mimeType, images) ?? "";
    case "audio":
      return `[audio ${block.mimeType}, ${formatSize(Buffer.byteLength(block.data, "base64"))}: not shown, because agentry sends no audio to models]`;
    case "resource": {
      const resource = block.resource;
      if ("text" in resource && typeof resource.text === "string") return resource.text;
      const type = resource.mimeType === undefined ? "" : ` ${resource.mimeType}`;
      if ("blob" in resource) {
        const image = mediaLine(resource.blob, resource.mimeType, images, resource.uri);
        if (image !== undefined) return image;
        return `[resource ${resource.uri}${type}, ${formatSize(Buffer.byteLength(resource.blob, "base64"))}]`;
      }
      return `[resource ${resource.uri}${type}]`;
    }
    case "resource_link": {
      const name = block.name === undefined ? "" : ` (${block.name})`;
      const read = JSON.stringify({ server, uri: block.uri });
      return `[resource link ${block.uri}${name}: read it with read_mcp_resource ${read}]`;
    }
    default:
      return `[${(block as { type: string }).type} content]`;
  }
}

/**
 * The line that goes with an image block, the image itself added to `images` when it can be sent.
 * Undefined for a blob that is no image (the caller describes it as a resource). The format is read from
 * the bytes, not from the server's `mimeType`, so what is sent is what the provider is told it is.
 */
function mediaLine(
  base64: string,
  mimeType: string | undefined,
  images: ImagePart[],
  uri?: string,
): string | undefined {
  const bytes = Buffer.from(base64, "base64");
  const info = sniffImage(bytes);
  const claimsImage = mimeType?.startsWith("image/") === true;
  const what = uri === undefined ? "image" : `image ${uri}`;
  if (info === undefined) {
    if (!claimsImage) return undefined;
    return `[${what} ${mimeType}, ${formatSize(bytes.length)}: not shown, because only PNG, JPEG, GIF and WebP images can be sent to a model]`;
  }
  const tooLarge = imageTooLarge(info, bytes.length, `the ${what}`);
  if (tooLarge !== undefined) return `[${tooLarge.split(";")[0]}: not shown]`;
  images.push(imagePartOf(bytes, info));
  return `[${what}: ${describeImage(info, bytes.length)}]`;
}
