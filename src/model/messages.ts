/**
 * Messages are closed discriminated unions. They are agentry's own format; each provider adapter
 * converts them to its wire format at exactly one crossing point (`src/model/providers/*`).
 */

export interface TextPart {
  type: "text";
  text: string;
}

export interface ReasoningPart {
  type: "reasoning";
  /** What the provider shows of the reasoning (OpenAI: a summary, possibly empty). */
  text: string;
  /** Anthropic: the thinking block's signature, needed to send it back. Opaque. */
  signature?: string;
  /** OpenAI Responses API: the reasoning item this part belongs to, needed to send it back. */
  item?: ReasoningItem;
}

/**
 * An OpenAI reasoning item. Several parts may share one (one per summary paragraph); the provider
 * sends `encryptedContent` with the item's end, and it is returned verbatim on the next turn.
 */
export interface ReasoningItem {
  id: string;
  encryptedContent?: string;
}

export interface ImagePart {
  type: "image";
  /** base64 without a data: prefix */
  data: string;
  mediaType: string;
  /** Pixels, when known: what providers bill an image by (`imageTokens`). */
  width?: number;
  height?: number;
}

export interface ToolCallPart {
  type: "tool_call";
  id: string;
  name: string;
  /** Parsed arguments; `undefined` when `rawArgs` was not valid JSON. */
  args: unknown;
  /** The exact argument text the model produced. */
  rawArgs: string;
}

export interface ToolResultPart {
  type: "tool_result";
  toolCallId: string;
  toolName: string;
  content: string;
  isError: boolean;
  /**
   * Images the tool returned besides its text (a screenshot, a file `read` showed). Sent to models that
   * take images, replaced by a line of text for those that do not (`toSdkPrompt`).
   */
  images?: ImagePart[];
}

export type StopReason = "stop" | "tool_calls" | "length" | "error" | "aborted";

export interface Usage {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  /** US dollars, when the model's price is known. */
  cost?: number;
}

export interface UserMessage {
  role: "user";
  content: Array<TextPart | ImagePart>;
}

export interface AssistantMessage {
  role: "assistant";
  content: Array<TextPart | ReasoningPart | ToolCallPart>;
  stopReason: StopReason;
  usage: Usage;
  /** `provider:model` that produced it. */
  model: string;
  /** Set when stopReason is "error" or "aborted". */
  errorMessage?: string;
  /** Set when stopReason is "error": whether trying again may succeed. */
  retryable?: boolean;
}

export interface ToolResultMessage {
  role: "tool_result";
  content: ToolResultPart[];
}

export type Message = UserMessage | AssistantMessage | ToolResultMessage;

export function emptyUsage(): Usage {
  return { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };
}

export function addUsage(a: Usage, b: Usage): Usage {
  const sum: Usage = {
    input: a.input + b.input,
    output: a.output + b.output,
    cacheRead: a.cacheRead + b.cacheRead,
    cacheWrite: a.cacheWrite + b.cacheWrite,
  };
  if (a.cost !== undefined || b.cost !== undefined) sum.cost = (a.cost ?? 0) + (b.cost ?? 0);
  return sum;
}

export function userText(text: string): UserMessage {
  return { role: "user", content: [{ type: "text", text }] };
}

/** A user message of a text and the images that go with it (`userText` when there are none). */
export function userMessage(text: string, images: readonly ImagePart[] = []): UserMessage {
  return { role: "user", content: [{ type: "text", text }, ...images] };
}

/** The concatenated text parts of an assistant message. */
export function assistantText(message: AssistantMessage): string {
  return message.content
    .filter((part): part is TextPart => part.type === "text")
    .map((part) => part.text)
    .join("");
}

export function toolCalls(message: AssistantMessage): ToolCallPart[] {
  return message.content.filter((part): part is ToolCallPart => part.type === "tool_call");
}
