import type {
  LanguageModelV4Message,
  LanguageModelV4Prompt,
  SharedV4ProviderOptions,
} from "@ai-sdk/provider";
import type {
  AssistantMessage,
  ImagePart,
  Message,
  ReasoningPart,
  ToolResultMessage,
  UserMessage,
} from "../messages.ts";
import { imageFallbackText, imagesNote } from "./image-fallback.ts";

type AssistantContent = Extract<LanguageModelV4Message, { role: "assistant" }>["content"];
type UserContent = Extract<LanguageModelV4Message, { role: "user" }>["content"];

export interface PromptOptions {
  /** Provider data that lets a reasoning part be sent back (Anthropic: its signature). */
  reasoningOptions?: (part: ReasoningPart) => SharedV4ProviderOptions | undefined;
  /**
   * The model cannot read images (`takesImages`): each image becomes a line of text naming it and
   * saying it was left out, which names this model id. Absent: images are sent.
   */
  textOnly?: { modelId: string };
  /**
   * Where a tool result's images go: `inline`, in the result itself (Anthropic, the Responses API), or
   * `user`, in a user message right after the results (Chat Completions, whose tool messages hold
   * text only). Default `inline`.
   */
  toolResultImages?: "inline" | "user";
}

/**
 * Our system prompt and messages → the AI SDK's provider-neutral prompt. This is the one crossing point
 * from agentry's message format; each provider package then writes its own wire format from it.
 */
export function toSdkPrompt(
  system: string,
  messages: Message[],
  options: PromptOptions = {},
): LanguageModelV4Prompt {
  const prompt: LanguageModelV4Prompt = [];
  if (system) prompt.push({ role: "system", content: system });
  for (const message of messages) prompt.push(...convertMessage(message, options));
  return prompt;
}

function convertMessage(message: Message, options: PromptOptions): LanguageModelV4Message[] {
  switch (message.role) {
    case "user":
      return [convertUser(message, options)];
    case "assistant": {
      const converted = convertAssistant(message, options);
      return converted ? [converted] : [];
    }
    case "tool_result":
      return convertToolResults(message, options);
  }
}

function convertUser(message: UserMessage, options: PromptOptions): LanguageModelV4Message {
  return {
    role: "user",
    content: message.content.map((part) =>
      part.type === "text" ? { type: "text", text: part.text } : imageContent(part, options),
    ),
  };
}

/** An image as the SDK's file part, or (for a model that reads no images) the line that stands for it. */
function imageContent(part: ImagePart, options: PromptOptions): UserContent[number] {
  if (options.textOnly) return { type: "text", text: imageFallbackText(part, options.textOnly.modelId) };
  return { type: "file", mediaType: part.mediaType, data: { type: "data", data: part.data } };
}

/** An assistant message with nothing to send (e.g. a failed turn) is dropped: providers reject empty turns. */
function convertAssistant(
  message: AssistantMessage,
  options: PromptOptions,
): LanguageModelV4Message | undefined {
  const content: AssistantContent = [];
  for (const part of message.content) {
    switch (part.type) {
      case "text":
        if (part.text) content.push({ type: "text", text: part.text });
        break;
      case "reasoning": {
        const providerOptions = options.reasoningOptions?.(part);
        content.push(
          providerOptions
            ? { type: "reasoning", text: part.text, providerOptions }
            : { type: "reasoning", text: part.text },
        );
        break;
      }
      case "tool_call":
        content.push({
          type: "tool-call",
          toolCallId: part.id,
          toolName: part.name,
          input: toolInput(part.args),
        });
        break;
    }
  }
  return content.length ? { role: "assistant", content } : undefined;
}

/**
 * Tool results, with their images in the results (`inline`) or in one user message after them
 * (`user`); for a text-only model, each image is a line of text at the end of its result.
 */
function convertToolResults(message: ToolResultMessage, options: PromptOptions): LanguageModelV4Message[] {
  const later: UserContent = [];
  const content = message.content.map((part) => {
    const images = part.images ?? [];
    const base = { type: "tool-result" as const, toolCallId: part.toolCallId, toolName: part.toolName };
    if (part.isError) return { ...base, output: { type: "error-text" as const, value: part.content } };
    if (images.length === 0) return { ...base, output: { type: "text" as const, value: part.content } };
    if (options.textOnly) {
      const lines = images.map((image) => imageFallbackText(image, options.textOnly?.modelId ?? ""));
      return { ...base, output: { type: "text" as const, value: [part.content, ...lines].join("\n") } };
    }
    if (options.toolResultImages === "user") {
      later.push(
        { type: "text", text: imagesNote(part) },
        ...images.map((image) => imageContent(image, options)),
      );
      return { ...base, output: { type: "text" as const, value: part.content } };
    }
    const value = [
      { type: "text" as const, text: part.content },
      ...images.map((image) => ({
        type: "file" as const,
        mediaType: image.mediaType,
        data: { type: "data" as const, data: image.data },
      })),
    ];
    return { ...base, output: { type: "content" as const, value } };
  });
  const results: LanguageModelV4Message = { role: "tool", content };
  return later.length === 0 ? [results] : [results, { role: "user", content: later }];
}

/**
 * Providers require tool input to be a JSON object. Arguments that did not parse (`args` undefined) or
 * were not an object are sent as `{}`; the tool result the loop wrote already tells the model what was wrong.
 */
function toolInput(args: unknown): unknown {
  return typeof args === "object" && args !== null && !Array.isArray(args) ? args : {};
}
