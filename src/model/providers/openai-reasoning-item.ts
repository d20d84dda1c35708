import type { SharedV4ProviderOptions } from "@ai-sdk/provider";
import { z } from "zod";
import type { ReasoningPart } from "../messages.ts";
import type { ReasoningData } from "./stream-assembler.ts";

/** What `@ai-sdk/openai`'s Responses model puts on reasoning stream parts. */
const itemMetadata = z.object({
  openai: z.object({ itemId: z.string(), reasoningEncryptedContent: z.string().nullish() }),
});

/**
 * A reasoning stream part's provider metadata → the OpenAI reasoning item it belongs to. The start
 * names the item; the encrypted content comes with the item's end (the last one wins).
 */
export function reasoningItemOf(metadata: unknown): ReasoningData | undefined {
  const parsed = itemMetadata.safeParse(metadata);
  if (!parsed.success) return undefined;
  const { itemId, reasoningEncryptedContent } = parsed.data.openai;
  return {
    item: reasoningEncryptedContent
      ? { id: itemId, encryptedContent: reasoningEncryptedContent }
      : { id: itemId },
  };
}

/**
 * Our reasoning part → the provider options with which the SDK writes the reasoning item back into
 * the next request's `input`. A part without an item (Anthropic thinking, after a model switch) gets
 * none, so the SDK leaves it out; so does one without encrypted content, which a stateless request
 * (`store: false`) cannot refer to.
 */
export function reasoningItemOptions(part: ReasoningPart): SharedV4ProviderOptions | undefined {
  if (!part.item) return undefined;
  return {
    openai: { itemId: part.item.id, reasoningEncryptedContent: part.item.encryptedContent ?? null },
  };
}
