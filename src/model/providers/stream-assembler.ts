import type {
  LanguageModelV4FinishReason,
  LanguageModelV4StreamPart,
  LanguageModelV4Usage,
} from "@ai-sdk/provider";
import type { AssistantMessage, ReasoningPart, ToolCallPart } from "../messages.ts";
import type { ModelEvent } from "../model.ts";

type Content = AssistantMessage["content"];

/** The provider data a reasoning part keeps so it can be sent back (Anthropic: signature; OpenAI: item). */
export type ReasoningData = Pick<ReasoningPart, "signature" | "item">;

/** Reads a stream part's provider metadata; undefined when it carries nothing for us. */
export type ReasoningDataOf = (metadata: unknown) => ReasoningData | undefined;

export interface FinishInfo {
  finishReason: LanguageModelV4FinishReason;
  usage: LanguageModelV4Usage;
}

/**
 * Turns the AI SDK's stream parts into our events while collecting the message they build.
 * Stateful but pure: no I/O, so each mapping is unit-tested by feeding parts in.
 */
export class StreamAssembler {
  private readonly parts: Content = [];
  /** Open text/reasoning blocks by the provider's block id. */
  private readonly open = new Map<string, { type: "text" | "reasoning"; index: number }>();
  private readonly startedCalls = new Set<string>();
  private readonly reasoningDataOf: ReasoningDataOf | undefined;
  /** The `finish` part, once seen. */
  finish: FinishInfo | undefined;
  /** The first `error` part's payload, once seen. */
  error: { value: unknown } | undefined;

  /**
   * `reasoningDataOf` reads what a reasoning part needs to be sent back from the provider metadata of
   * its start, deltas and end: Anthropic's signature comes with a delta, OpenAI's encrypted content
   * with the end.
   */
  constructor(reasoningDataOf?: ReasoningDataOf) {
    this.reasoningDataOf = reasoningDataOf;
  }

  accept(part: LanguageModelV4StreamPart): ModelEvent[] {
    switch (part.type) {
      case "text-start":
        this.openBlock(part.id, "text");
        return [];
      case "text-delta":
        return this.appendText(part.id, "text", part.delta);
      case "reasoning-start":
        this.openBlock(part.id, "reasoning");
        this.keepReasoningData(part.id, part.providerMetadata);
        return [];
      case "reasoning-delta": {
        const events = this.appendText(part.id, "reasoning", part.delta);
        this.keepReasoningData(part.id, part.providerMetadata);
        return events;
      }
      case "reasoning-end":
        this.keepReasoningData(part.id, part.providerMetadata);
        this.open.delete(part.id);
        return [];
      case "text-end":
        this.open.delete(part.id);
        return [];
      case "tool-input-start":
        this.startedCalls.add(part.id);
        return [{ type: "tool_call_start", id: part.id, name: part.toolName }];
      case "tool-input-delta":
        return part.delta ? [{ type: "tool_call_delta", id: part.id, delta: part.delta }] : [];
      case "tool-call":
        return this.completeCall(part.toolCallId, part.toolName, part.input);
      case "finish":
        this.finish = { finishReason: part.finishReason, usage: part.usage };
        return [];
      case "error":
        this.error ??= { value: part.error };
        return [];
      default:
        // stream-start, response-metadata, sources, files, raw chunks, pings: nothing for us.
        return [];
    }
  }

  /** Everything collected so far. */
  content(): Content {
    return this.parts;
  }

  /** Text and reasoning only: a failed message never carries tool calls nobody will answer. */
  partialContent(): Content {
    return this.parts.filter((part) => part.type !== "tool_call");
  }

  hasToolCalls(): boolean {
    return this.parts.some((part) => part.type === "tool_call");
  }

  private openBlock(id: string, type: "text" | "reasoning"): void {
    this.parts.push({ type, text: "" });
    this.open.set(id, { type, index: this.parts.length - 1 });
  }

  private appendText(id: string, type: "text" | "reasoning", delta: string): ModelEvent[] {
    let block = this.open.get(id);
    if (!block || block.type !== type) {
      this.openBlock(id, type);
      block = this.open.get(id)!;
    }
    const part = this.parts[block.index];
    if (part && (part.type === "text" || part.type === "reasoning")) part.text += delta;
    if (!delta) return [];
    return [type === "text" ? { type: "text_delta", delta } : { type: "reasoning_delta", delta }];
  }

  /** Later metadata wins field by field: OpenAI's final encrypted content replaces an earlier one. */
  private keepReasoningData(id: string, metadata: unknown): void {
    const data = metadata === undefined ? undefined : this.reasoningDataOf?.(metadata);
    if (!data) return;
    const block = this.open.get(id);
    const part = block ? this.parts[block.index] : undefined;
    if (part?.type !== "reasoning") return;
    if (data.signature) part.signature = data.signature;
    if (data.item) part.item = { ...part.item, ...data.item };
  }

  private completeCall(id: string, name: string, input: string): ModelEvent[] {
    const events: ModelEvent[] = [];
    if (!this.startedCalls.has(id)) {
      // Some servers send a whole call at once; still give consumers the start/delta/end shape.
      events.push({ type: "tool_call_start", id, name });
      if (input) events.push({ type: "tool_call_delta", id, delta: input });
    }
    const call: ToolCallPart = { type: "tool_call", id, name, args: parseArgs(input), rawArgs: input };
    this.parts.push(call);
    events.push({ type: "tool_call_end", id, name, rawArgs: input });
    return events;
  }
}

/** The parsed arguments, or undefined when the text is not JSON (the loop tells the model). */
export function parseArgs(rawArgs: string): unknown {
  try {
    return JSON.parse(rawArgs);
  } catch {
    return undefined;
  }
}
