import type { CreateMessageRequestParams, CreateMessageResult } from "@modelcontextprotocol/client";
import { sniffImage } from "../model/images.ts";
import { assistantText, type ImagePart, type Message, type TextPart } from "../model/messages.ts";
import type { SamplingFeature } from "./client-features.ts";

const PREVIEW_CHARS = 200;

/**
 * Answers a server's `sampling/createMessage` with the run's model, once approved (`mcp_sampling`,
 * the server's name): its messages (text and images; audio as a line saying it was left out), its
 * system prompt, `maxTokens` and temperature. The server's model preferences are not followed: the
 * run's model answers. Throws (the server gets an error) when it is not approved or the model fails.
 */
export async function sample(
  server: string,
  params: CreateMessageRequestParams,
  feature: SamplingFeature,
  signal: AbortSignal,
): Promise<CreateMessageResult> {
  const messages = params.messages.map(toMessage);
  const last = params.messages.at(-1);
  const preview = last === undefined ? "" : blocksOf(last.content).map(blockText).join(" ");
  await feature.approve(
    {
      server,
      preview: preview.length > PREVIEW_CHARS ? `${preview.slice(0, PREVIEW_CHARS)}…` : preview,
      maxTokens: params.maxTokens,
    },
    signal,
  );
  const model = feature.model();
  const reply = await model
    .stream(
      {
        system: params.systemPrompt ?? "",
        messages,
        tools: [],
        maxOutputTokens: params.maxTokens,
        ...(params.temperature === undefined ? {} : { temperature: params.temperature }),
      },
      signal,
    )
    .result();
  if (reply.stopReason === "error" || reply.stopReason === "aborted")
    throw new Error(`the model (${model.id}) failed: ${reply.errorMessage ?? reply.stopReason}`);
  return {
    role: "assistant",
    content: { type: "text", text: assistantText(reply) },
    model: model.id,
    stopReason: reply.stopReason === "length" ? "maxTokens" : "endTurn",
  };
}

type SamplingMessage = CreateMessageRequestParams["messages"][number];
type SamplingBlock = Extract<SamplingMessage["content"], { type: string }>;

function blocksOf(content: SamplingMessage["content"]): SamplingBlock[] {
  return Array.isArray(content) ? content : [content];
}

/** An MCP sampling message as ours: an assistant's as its text, a user's as text and images. */
function toMessage(message: SamplingMessage): Message {
  const blocks = blocksOf(message.content);
  if (message.role === "assistant") {
    const text = blocks.map(blockText).join("\n");
    return {
      role: "assistant",
      content: [{ type: "text", text }],
      stopReason: "stop",
      usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
      model: "mcp-sampling",
    };
  }
  const content: Array<TextPart | ImagePart> = blocks.map((block) => {
    if (block.type === "image") {
      const info = sniffImage(Buffer.from(block.data, "base64"));
      if (info !== undefined) return { type: "image", data: block.data, mediaType: info.mediaType };
    }
    return { type: "text", text: blockText(block) };
  });
  return { role: "user", content };
}

function blockText(block: SamplingBlock): string {
  switch (block.type) {
    case "text":
      return block.text;
    case "image":
    case "audio":
      return `[${block.type} ${block.mimeType}]`;
    default:
      return `[${block.type}]`;
  }
}
