import { imageTokens } from "../../model/image-tokens.ts";
import type { ImagePart, Message, Usage } from "../../model/messages.ts";
import type { ModelRequest } from "../../model/model.ts";

/**
 * Token estimates of a model call while it runs, so budgets hold during streaming instead of only
 * after each call: providers report usage at the end of a reply. Estimates, not counts: about four
 * characters a token (English prose is nearer four, code and JSON nearer three), and the prompt of an
 * agent's later calls is scaled from what the provider reported for its previous one.
 */
export const CHARS_PER_TOKEN = 4;

export function tokensOfChars(chars: number): number {
  return Math.ceil(chars / CHARS_PER_TOKEN);
}

/** Input + output + cache tokens: what every budget counts. */
export function totalTokens(usage: Usage): number {
  return usage.input + usage.output + usage.cacheRead + usage.cacheWrite;
}

/**
 * The characters of a request as a provider reads them: system prompt, tool specs and messages. An
 * image counts as the characters of the tokens `modelId`'s provider bills for it.
 */
export function requestChars(request: ModelRequest, modelId?: string): number {
  let chars = request.system.length + JSON.stringify(request.tools).length;
  for (const message of request.messages) chars += messageChars(message, modelId);
  return chars;
}

/** What an image costs, in the characters the estimates count in: providers bill by its pixels, not its bytes. */
function imageChars(image: ImagePart, modelId: string | undefined): number {
  return imageTokens(modelId, image.width, image.height) * CHARS_PER_TOKEN;
}

/** The characters of one message as a provider reads it, framing included. */
export function messageChars(message: Message, modelId?: string): number {
  // A few characters of framing per message and part (role, ids, separators).
  let chars = 8;
  for (const part of message.content) {
    switch (part.type) {
      case "text":
      case "reasoning":
        chars += part.text.length + 4;
        break;
      case "image":
        chars += imageChars(part, modelId);
        break;
      case "tool_call":
        chars += part.name.length + part.id.length + part.rawArgs.length + 8;
        break;
      case "tool_result":
        chars += part.toolCallId.length + part.content.length + 8;
        for (const image of part.images ?? []) chars += imageChars(image, modelId);
        break;
    }
  }
  return chars;
}

/**
 * The prompt tokens of an agent's next call: its request's characters at four a token for the first
 * call, then scaled from the previous call's reported prompt (input + cache), which calibrates the
 * estimate to the provider's tokenizer.
 */
export class PromptEstimator {
  private last: { chars: number; tokens: number } | undefined;
  private readonly modelId: string | undefined;

  /** `modelId`: whose provider's rule prices the images (`imageTokens`). */
  constructor(modelId?: string) {
    this.modelId = modelId;
  }

  estimate(request: ModelRequest): { chars: number; tokens: number } {
    const chars = requestChars(request, this.modelId);
    const last = this.last;
    const tokens = last ? Math.ceil((last.tokens * chars) / last.chars) : tokensOfChars(chars);
    return { chars, tokens };
  }

  /** What the provider reported for a request of `chars` characters. */
  calibrate(chars: number, usage: Usage): void {
    const prompt = usage.input + usage.cacheRead + usage.cacheWrite;
    if (prompt > 0 && chars > 0) this.last = { chars, tokens: prompt };
  }
}
