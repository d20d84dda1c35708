import type { LanguageModelV4StreamPart } from "@ai-sdk/provider";
import { describe, expect, test } from "vitest";
import { z } from "zod";
import type { ModelEvent } from "../../../src/model/model.ts";
import { parseArgs, StreamAssembler } from "../../../src/model/providers/stream-assembler.ts";

function feed(assembler: StreamAssembler, parts: LanguageModelV4StreamPart[]): ModelEvent[] {
  return parts.flatMap((part) => assembler.accept(part));
}

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: undefined },
};

describe("StreamAssembler", () => {
  test("text deltas become text_delta events and one text part", () => {
    const assembler = new StreamAssembler();
    const events = feed(assembler, [
      { type: "stream-start", warnings: [] },
      { type: "text-start", id: "0" },
      { type: "text-delta", id: "0", delta: "Hel" },
      { type: "text-delta", id: "0", delta: "lo" },
      { type: "text-end", id: "0" },
    ]);
    expect(events).toEqual([
      { type: "text_delta", delta: "Hel" },
      { type: "text_delta", delta: "lo" },
    ]);
    expect(assembler.content()).toEqual([{ type: "text", text: "Hello" }]);
  });

  test("reasoning keeps its signature from provider metadata", () => {
    const assembler = new StreamAssembler((metadata) => {
      const signature = z.object({ test: z.object({ sig: z.string() }) }).safeParse(metadata).data?.test.sig;
      return signature ? { signature } : undefined;
    });
    const events = feed(assembler, [
      { type: "reasoning-start", id: "0" },
      { type: "reasoning-delta", id: "0", delta: "think" },
      { type: "reasoning-delta", id: "0", delta: "", providerMetadata: { test: { sig: "abc" } } },
      { type: "reasoning-end", id: "0" },
      { type: "text-start", id: "1" },
      { type: "text-delta", id: "1", delta: "answer" },
    ]);
    expect(events).toEqual([
      { type: "reasoning_delta", delta: "think" },
      { type: "text_delta", delta: "answer" },
    ]);
    expect(assembler.content()).toEqual([
      { type: "reasoning", text: "think", signature: "abc" },
      { type: "text", text: "answer" },
    ]);
  });

  test("reasoning data from start, deltas and end is merged, the last value winning", () => {
    const itemOf = (metadata: unknown) => {
      const parsed = z.object({ test: z.object({ id: z.string(), enc: z.string().optional() }) });
      const data = parsed.safeParse(metadata).data?.test;
      if (!data) return undefined;
      return { item: data.enc ? { id: data.id, encryptedContent: data.enc } : { id: data.id } };
    };
    const assembler = new StreamAssembler(itemOf);
    feed(assembler, [
      { type: "reasoning-start", id: "r:0", providerMetadata: { test: { id: "r", enc: "early" } } },
      { type: "reasoning-delta", id: "r:0", delta: "first", providerMetadata: { test: { id: "r" } } },
      { type: "reasoning-end", id: "r:0", providerMetadata: { test: { id: "r", enc: "final" } } },
      // A reasoning item with no summary: no deltas, yet the part (and its item) is kept.
      { type: "reasoning-start", id: "s:0", providerMetadata: { test: { id: "s" } } },
      { type: "reasoning-end", id: "s:0", providerMetadata: { test: { id: "s", enc: "only" } } },
    ]);
    expect(assembler.content()).toEqual([
      { type: "reasoning", text: "first", item: { id: "r", encryptedContent: "final" } },
      { type: "reasoning", text: "", item: { id: "s", encryptedContent: "only" } },
    ]);
  });

  test("streamed tool input becomes start/delta/end with the exact raw text", () => {
    const assembler = new StreamAssembler();
    const events = feed(assembler, [
      { type: "tool-input-start", id: "c1", toolName: "read" },
      { type: "tool-input-delta", id: "c1", delta: '{"pa' },
      { type: "tool-input-delta", id: "c1", delta: 'th": "a.ts"}' },
      { type: "tool-input-end", id: "c1" },
      { type: "tool-call", toolCallId: "c1", toolName: "read", input: '{"path": "a.ts"}' },
    ]);
    expect(events).toEqual([
      { type: "tool_call_start", id: "c1", name: "read" },
      { type: "tool_call_delta", id: "c1", delta: '{"pa' },
      { type: "tool_call_delta", id: "c1", delta: 'th": "a.ts"}' },
      { type: "tool_call_end", id: "c1", name: "read", rawArgs: '{"path": "a.ts"}' },
    ]);
    expect(assembler.content()).toEqual([
      { type: "tool_call", id: "c1", name: "read", args: { path: "a.ts" }, rawArgs: '{"path": "a.ts"}' },
    ]);
    expect(assembler.hasToolCalls()).toBe(true);
  });

  test("a whole tool call without input parts still yields start, delta and end", () => {
    const events = feed(new StreamAssembler(), [
      { type: "tool-call", toolCallId: "c9", toolName: "list", input: "{}" },
    ]);
    expect(events.map((event) => event.type)).toEqual([
      "tool_call_start",
      "tool_call_delta",
      "tool_call_end",
    ]);
  });

  test("unparseable arguments keep rawArgs and leave args undefined", () => {
    const assembler = new StreamAssembler();
    feed(assembler, [{ type: "tool-call", toolCallId: "c1", toolName: "bash", input: '{"cmd": "ls' }]);
    expect(assembler.content()[0]).toEqual({
      type: "tool_call",
      id: "c1",
      name: "bash",
      args: undefined,
      rawArgs: '{"cmd": "ls',
    });
    expect(parseArgs("not json")).toBeUndefined();
  });

  test("records the finish and the first error; partial content drops tool calls", () => {
    const assembler = new StreamAssembler();
    feed(assembler, [
      { type: "text-delta", id: "0", delta: "so far" },
      { type: "tool-call", toolCallId: "c1", toolName: "read", input: "{}" },
      { type: "error", error: "first" },
      { type: "error", error: "second" },
      { type: "finish", finishReason: { unified: "stop", raw: "end_turn" }, usage },
    ]);
    expect(assembler.error).toEqual({ value: "first" });
    expect(assembler.finish?.finishReason.unified).toBe("stop");
    expect(assembler.partialContent()).toEqual([{ type: "text", text: "so far" }]);
  });
});
