import type { ReadResourceResult } from "@modelcontextprotocol/client";
import type { ImagePart } from "../model/messages.ts";
import { formatSize } from "../tools/format-size.ts";
import type { McpConnection } from "./mcp-connection.ts";
import { type McpContent, mcpResultContent } from "./mcp-result.ts";

/** What a server offers to read: its resources and the templates of the ones it makes on demand. */
export interface ResourceListing {
  server: string;
  resources: Array<{ uri: string; name: string; mimeType?: string; description?: string }>;
  templates: Array<{ uriTemplate: string; name: string; mimeType?: string; description?: string }>;
}

/** Lists a server's resources and templates (every page). */
export async function listResources(
  connection: McpConnection,
  options: { signal?: AbortSignal; timeoutMs: number },
): Promise<ResourceListing> {
  const requestOptions = {
    timeout: options.timeoutMs,
    ...(options.signal ? { signal: options.signal } : {}),
  };
  const [{ resources }, { resourceTemplates }] = await Promise.all([
    connection.client.listResources(undefined, requestOptions),
    connection.client.listResourceTemplates(undefined, requestOptions),
  ]);
  return {
    server: connection.server,
    resources: resources.map((resource) => described(resource, { uri: resource.uri })),
    templates: resourceTemplates.map((template) =>
      described(template, { uriTemplate: template.uriTemplate }),
    ),
  };
}

function described<T extends object>(
  item: {
    name: string;
    title?: string | undefined;
    mimeType?: string | undefined;
    description?: string | undefined;
  },
  base: T,
): T & { name: string; mimeType?: string; description?: string } {
  return {
    ...base,
    name: item.title ?? item.name,
    ...(item.mimeType === undefined ? {} : { mimeType: item.mimeType }),
    ...(item.description === undefined ? {} : { description: item.description }),
  };
}

/**
 * Reads one resource for the model: its text contents as they are, an image content as an image (when
 * it can be sent), any other binary as a line naming its type and size. Several contents are each
 * headed by their uri.
 */
export async function readResource(
  connection: McpConnection,
  uri: string,
  options: { signal?: AbortSignal; timeoutMs: number },
): Promise<McpContent> {
  const result: ReadResourceResult = await connection.client.readResource(
    { uri },
    { timeout: options.timeoutMs, ...(options.signal ? { signal: options.signal } : {}) },
  );
  const images: ImagePart[] = [];
  const several = result.contents.length > 1;
  const parts = result.contents.map((content) => {
    const head = several ? `[${content.uri}${content.mimeType ? ` ${content.mimeType}` : ""}]\n` : "";
    if ("text" in content && typeof content.text === "string") return `${head}${content.text}`;
    if ("blob" in content && typeof content.blob === "string") {
      const converted = mcpResultContent(
        { content: [{ type: "resource", resource: { ...content, blob: content.blob } }] },
        connection.server,
      );
      images.push(...converted.images);
      return `${head}${converted.text}`;
    }
    return `${head}[resource ${content.uri}, ${formatSize(0)}]`;
  });
  return { text: parts.length === 0 ? `${uri} has no content.` : parts.join("\n\n"), images };
}
