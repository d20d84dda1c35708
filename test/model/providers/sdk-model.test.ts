import type { LanguageModelV4, LanguageModelV4StreamPart } from "@ai-sdk/provider";
import { expect, test } from "vitest";
import { userText } from "../../../src/model/messages.ts";
import { sdkModel } from "../../../src/model/providers/sdk-model.ts";
import { collect } from "./http-models.ts";

const usage = {
  inputTokens: { total: 5, noCache: 5, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 2, text: 2, reasoning: undefined },
};

/** A language model that replays fixed stream parts: for endings a real server cannot produce on demand. */
function replay(parts: LanguageModelV4StreamPart[]): LanguageModelV4 {
  return {
    specificationVersion: "v4",
    provider: "replay",
    modelId: "replay",
    supportedUrls: {},
    doGenerate: () => Promise.reject(new Error("not used")),
    doStream: async () => ({
      stream: new ReadableStream({
        start(controller) {
          for (const part of parts) controller.enqueue(part);
          controller.close();
        },
      }),
    }),
  };
}

const request = { system: "", messages: [userText("hi")], tools: [] };
const model = (parts: LanguageModelV4StreamPart[]) =>
  sdkModel({ id: "replay:model", language: replay(parts), hints: { label: "Replay", model: "model" } });

test("a stream that ends without a finish is an error, not a success", async () => {
  const { message } = await collect(
    model([
      { type: "text-start", id: "0" },
      { type: "text-delta", id: "0", delta: "half" },
    ]).stream(request),
  );
  expect(message).toMatchObject({
    stopReason: "error",
    retryable: true,
    content: [{ type: "text", text: "half" }],
  });
  expect(message.errorMessage).toMatch(/stream ended before the message was complete/);
});

test("an interrupted finish is an error too", async () => {
  const { events, message } = await collect(
    model([
      { type: "text-delta", id: "0", delta: "half" },
      { type: "finish", finishReason: { unified: "interrupted", raw: undefined }, usage },
    ]).stream(request),
  );
  expect(message.stopReason).toBe("error");
  expect(events.some((event) => event.type === "usage")).toBe(false);
});

test("an error part ends the message with that error", async () => {
  const { message } = await collect(
    model([
      { type: "text-delta", id: "0", delta: "x" },
      {
        type: "error",
        error: { message: "Overloaded", type: "overloaded_error", statusCode: 529, isRetryable: true },
      },
      { type: "finish", finishReason: { unified: "error", raw: undefined }, usage },
    ]).stream(request),
  );
  expect(message).toMatchObject({ stopReason: "error", retryable: true });
  expect(message.errorMessage).toMatch(/^Replay returned HTTP 529 overloaded_error: Overloaded/);
});

test("a model without a known price reports usage without cost", async () => {
  const { message } = await collect(
    model([
      { type: "text-delta", id: "0", delta: "ok" },
      { type: "finish", finishReason: { unified: "stop", raw: "stop" }, usage },
    ]).stream(request),
  );
  expect(message).toMatchObject({
    stopReason: "stop",
    model: "replay:model",
    usage: { input: 5, output: 2, cacheRead: 0, cacheWrite: 0 },
  });
  expect(message.usage).not.toHaveProperty("cost");
});
