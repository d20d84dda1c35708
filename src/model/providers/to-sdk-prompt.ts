import type {
  LanguageModelV4Message,
  LanguageModelV4Prompt,
  SharedV4ProviderOptions,
} from "@ai-sdk/provider";
import type {
  AssistantMessage,
  Message,
  ReasoningPart,
  ToolResultMessage,
  UserMessage,
} from "../messages.ts";

type AssistantContent = Extract<LanguageModelV4Message, { role: "assistant" }>["content"];

export interface PromptOptions {
  /** Provider data that lets a reasoning part be sent back (Anthropic: its signature). */
  reasoningOptions?: (part: ReasoningPart) => SharedV4ProviderOptions | undefined;
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
  for (const message of messages) {
    const converted = convertMessage(message, options);
    if (converted) prompt.push(converted);
  }
  return prompt;
}

function convertMessage(message: Message, options: PromptOptions): LanguageModelV4Message | undefined {
  switch (message.role) {
    case "user":
      return convertUser(message);
    case "assistant":
      return convertAssistant(message, options);
    case "tool_result":
      return convertToolResults(message);
  }
}

function convertUser(message: UserMessage): LanguageModelV4Message {
  return {
    role: "user",
    content: message.content.map((part) =>
      part.type === "text"
        ? { type: "text", text: part.text }
        : { type: "file", mediaType: part.mediaType, data: { type: "data", data: part.data } },
    ),
  };
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

function convertToolResults(message: ToolResultMessage): LanguageModelV4Message {
  return {
    role: "tool",
    content: message.content.map((part) => ({
      type: "tool-result",
      toolCallId: part.toolCallId,
      toolName: part.toolName,
      output: part.isError
        ? { type: "error-text", value: part.content }
        : { type: "text", value: part.content },
    })),
  };
}

/**
 * Providers require tool input to be a JSON object. Arguments that did not parse (`args` undefined) or
 * were not an object are sent as `{}`; the tool result the loop wrote already tells the model what was wrong.
 */
function toolInput(args: unknown): unknown {
  return typeof args === "object" && args !== null && !Array.isArray(args) ? args : {};
}
