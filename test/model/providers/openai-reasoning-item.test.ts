import type { LanguageModelV4StreamPart } from "@ai-sdk/provider";
import { describe, expect, test } from "vitest";
import { emptyUsage } from "../../../src/model/messages.ts";
import { reasoningItemOf, reasoningItemOptions } from "../../../src/model/providers/openai-reasoning-item.ts";
import { StreamAssembler } from "../../../src/model/providers/stream-assembler.ts";
import { toSdkPrompt } from "../../../src/model/providers/to-sdk-prompt.ts";

const meta = (itemId: string, reasoningEncryptedContent?: string | null) => ({
  openai: { itemId, ...(reasoningEncryptedContent === undefined ? {} : { reasoningEncryptedContent }) },
});

describe("reasoningItemOf", () => {
  test("names the item, with its encrypted content once the metadata carries it", () => {
    expect(reasoningItemOf(meta("rs_1"))).toEqual({ item: { id: "rs_1" } });
    expect(reasoningItemOf(meta("rs_1", null))).toEqual({ item: { id: "rs_1" } });
    expect(reasoningItemOf(meta("rs_1", "gAAA"))).toEqual({ item: { id: "rs_1", encryptedContent: "gAAA" } });
  });

  test("ignores metadata that is not an OpenAI reasoning item", () => {
    expect(reasoningItemOf(undefined)).toBeUndefined();
    expect(reasoningItemOf({ anthropic: { signature: "s" } })).toBeUndefined();
    expect(reasoningItemOf({ openai: { responseId: "resp_1" } })).toBeUndefined();
  });
});

describe("reasoningItemOptions", () => {
  test("gives the SDK the item id and encrypted content (null when it never arrived)", () => {
    expect(
      reasoningItemOptions({ type: "reasoning", text: "t", item: { id: "rs_1", encryptedContent: "gAAA" } }),
    ).toEqual({ openai: { itemId: "rs_1", reasoningEncryptedContent: "gAAA" } });
    expect(reasoningItemOptions({ type: "reasoning", text: "t", item: { id: "rs_1" } })).toEqual({
      openai: { itemId: "rs_1", reasoningEncryptedContent: null },
    });
  });

  test("gives nothing for reasoning that is not an OpenAI item (Anthropic's signed thinking)", () => {
    expect(reasoningItemOptions({ type: "reasoning", text: "t", signature: "sig" })).toBeUndefined();
  });
});

test("the SDK's stream parts of a two-paragraph summary become two parts of one item that convert back", () => {
  // The SDK's parts for one reasoning item with two summary parts (store: false): the item is named at
  // each start; the encrypted content comes with the end of the last part.
  const parts: LanguageModelV4StreamPart[] = [
    { type: "reasoning-start", id: "rs_1:0", providerMetadata: meta("rs_1", null) },
    { type: "reasoning-delta", id: "rs_1:0", delta: "First.", providerMetadata: meta("rs_1") },
    { type: "reasoning-end", id: "rs_1:0", providerMetadata: meta("rs_1") },
    { type: "reasoning-start", id: "rs_1:1", providerMetadata: meta("rs_1", null) },
    { type: "reasoning-delta", id: "rs_1:1", delta: "Second.", providerMetadata: meta("rs_1") },
    { type: "reasoning-end", id: "rs_1:1", providerMetadata: meta("rs_1", "gAAA") },
  ];
  const assembler = new StreamAssembler(reasoningItemOf);
  for (const part of parts) assembler.accept(part);
  const content = assembler.content();
  expect(content).toEqual([
    { type: "reasoning", text: "First.", item: { id: "rs_1" } },
    { type: "reasoning", text: "Second.", item: { id: "rs_1", encryptedContent: "gAAA" } },
  ]);

  const prompt = toSdkPrompt(
    "",
    [{ role: "assistant", content, stopReason: "stop", usage: emptyUsage(), model: "openai:gpt-5" }],
    { reasoningOptions: reasoningItemOptions },
  );
  expect(prompt).toEqual([
    {
      role: "assistant",
      content: [
        { type: "reasoning", text: "First.", providerOptions: meta("rs_1", null) },
        { type: "reasoning", text: "Second.", providerOptions: meta("rs_1", "gAAA") },
      ],
    },
  ]);
});
