import { createAnthropic } from "@ai-sdk/anthropic";
import { createOpenAI } from "@ai-sdk/openai";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import type { LanguageModelV4CallOptions, LanguageModelV4StreamPart } from "@ai-sdk/provider";
import { afterEach, describe, expect, it } from "vitest";
import { type ModelServer, startModelServer } from "./model-server.ts";
import { encryptedReasoning } from "./openai-responses-sse.ts";

// The provider SDKs' own parsers must accept our streams, or adapter tests would prove nothing.

const options: LanguageModelV4CallOptions = {
  prompt: [{ role: "user", content: [{ type: "text", text: "go" }] }],
  tools: [
    {
      type: "function",
      name: "read",
      inputSchema: { type: "object", properties: { path: { type: "string" } } },
    },
    {
      type: "function",
      name: "grep",
      inputSchema: { type: "object", properties: { pattern: { type: "string" } } },
    },
  ],
};

const reply = {
  reasoning: "Let me look.",
  text: "Reading two files.",
  toolCalls: [
    { id: "call_a", name: "read", args: { path: "src/a.ts" } },
    { id: "call_b", name: "grep", args: { pattern: "TODO|FIXME" } },
  ],
  usage: { input: 120, output: 42, cacheRead: 30, cacheWrite: 7 },
};

let server: ModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function collect(
  stream: ReadableStream<LanguageModelV4StreamPart>,
): Promise<LanguageModelV4StreamPart[]> {
  const parts: LanguageModelV4StreamPart[] = [];
  for await (const part of stream) parts.push(part);
  return parts;
}

function joined(parts: LanguageModelV4StreamPart[], type: "text-delta" | "reasoning-delta"): string {
  return parts.flatMap((part) => (part.type === type ? [part.delta] : [])).join("");
}

describe("the real SDK parsers accept the server's streams", () => {
  it("@ai-sdk/anthropic reads reasoning, text, two streamed tool calls and usage", async () => {
    server = await startModelServer([reply]);
    const model = createAnthropic({ baseURL: `${server.anthropicBaseUrl}/v1`, apiKey: "test" }).languageModel(
      "claude-sonnet-4-5",
    );
    const { stream } = await model.doStream(options);
    const parts = await collect(stream);

    expect(parts.filter((part) => part.type === "error")).toEqual([]);
    expect(joined(parts, "reasoning-delta")).toBe("Let me look.");
    expect(parts).toContainEqual(
      expect.objectContaining({
        type: "reasoning-delta",
        providerMetadata: { anthropic: { signature: expect.any(String) } },
      }),
    );
    expect(joined(parts, "text-delta")).toBe("Reading two files.");
    const inputDeltas = parts.filter((part) => part.type === "tool-input-delta" && part.id === "call_b");
    expect(inputDeltas.length).toBeGreaterThan(1);
    expect(parts.filter((part) => part.type === "tool-call")).toEqual([
      expect.objectContaining({ toolCallId: "call_a", toolName: "read", input: '{"path":"src/a.ts"}' }),
      expect.objectContaining({ toolCallId: "call_b", toolName: "grep", input: '{"pattern":"TODO|FIXME"}' }),
    ]);
    const finish = parts.find((part) => part.type === "finish");
    expect(finish).toMatchObject({
      finishReason: { unified: "tool-calls", raw: "tool_use" },
      usage: {
        inputTokens: { total: 157, noCache: 120, cacheRead: 30, cacheWrite: 7 },
        outputTokens: { total: 42 },
      },
    });
    expect(server.requests[0]).toMatchObject({
      protocol: "anthropic",
      path: "/v1/messages",
      headers: { "x-api-key": "test" },
      body: { model: "claude-sonnet-4-5", stream: true },
    });
  });

  it("@ai-sdk/openai (chat) reads text, two streamed tool calls and usage", async () => {
    server = await startModelServer(reply);
    const model = createOpenAI({ baseURL: server.openaiBaseUrl, apiKey: "test" }).chat("gpt-5");
    const { stream } = await model.doStream(options);
    const parts = await collect(stream);

    expect(parts.filter((part) => part.type === "error")).toEqual([]);
    expect(joined(parts, "text-delta")).toBe("Reading two files.");
    const inputDeltas = parts.filter((part) => part.type === "tool-input-delta" && part.id === "call_b");
    expect(inputDeltas.length).toBeGreaterThan(1);
    expect(parts.filter((part) => part.type === "tool-call")).toEqual([
      expect.objectContaining({ toolCallId: "call_a", toolName: "read", input: '{"path":"src/a.ts"}' }),
      expect.objectContaining({ toolCallId: "call_b", toolName: "grep", input: '{"pattern":"TODO|FIXME"}' }),
    ]);
    expect(parts.find((part) => part.type === "finish")).toMatchObject({
      finishReason: { unified: "tool-calls", raw: "tool_calls" },
      usage: { inputTokens: { total: 150, noCache: 120, cacheRead: 30 }, outputTokens: { total: 42 } },
    });
    expect(server.requests[0]).toMatchObject({
      protocol: "openai-chat",
      path: "/v1/chat/completions",
      headers: { authorization: "Bearer test" },
      body: { model: "gpt-5", stream: true, stream_options: { include_usage: true } },
    });
  });

  it("@ai-sdk/openai (responses) reads reasoning with its encrypted content, text, two tool calls and usage", async () => {
    server = await startModelServer(reply);
    const model = createOpenAI({ baseURL: server.openaiBaseUrl, apiKey: "test" }).responses("gpt-5");
    const { stream } = await model.doStream({
      ...options,
      providerOptions: { openai: { store: false, reasoningSummary: "auto" } },
    });
    const parts = await collect(stream);

    expect(parts.filter((part) => part.type === "error")).toEqual([]);
    expect(joined(parts, "reasoning-delta")).toBe("Let me look.");
    expect(parts.find((part) => part.type === "reasoning-end")).toMatchObject({
      providerMetadata: {
        openai: { itemId: "rs_test_0", reasoningEncryptedContent: encryptedReasoning("rs_test_0") },
      },
    });
    expect(joined(parts, "text-delta")).toBe("Reading two files.");
    const inputDeltas = parts.filter((part) => part.type === "tool-input-delta" && part.id === "call_b");
    expect(inputDeltas.length).toBeGreaterThan(1);
    expect(parts.filter((part) => part.type === "tool-call")).toEqual([
      expect.objectContaining({ toolCallId: "call_a", toolName: "read", input: '{"path":"src/a.ts"}' }),
      expect.objectContaining({ toolCallId: "call_b", toolName: "grep", input: '{"pattern":"TODO|FIXME"}' }),
    ]);
    expect(parts.find((part) => part.type === "finish")).toMatchObject({
      finishReason: { unified: "tool-calls" },
      usage: {
        inputTokens: { total: 157, noCache: 120, cacheRead: 30, cacheWrite: 7 },
        outputTokens: { total: 42 },
      },
    });
    expect(server.requests[0]).toMatchObject({
      protocol: "openai",
      path: "/v1/responses",
      headers: { authorization: "Bearer test" },
      body: {
        model: "gpt-5",
        stream: true,
        store: false,
        include: ["reasoning.encrypted_content"],
        reasoning: { summary: "auto" },
      },
    });
  });

  it("@ai-sdk/openai-compatible reads text, two streamed tool calls and usage", async () => {
    server = await startModelServer(reply);
    const model = createOpenAICompatible({
      name: "local",
      baseURL: server.openaiBaseUrl,
      apiKey: "test",
      includeUsage: true,
    }).chatModel("qwen3-coder");
    const parts = await collect((await model.doStream(options)).stream);
    expect(parts.filter((part) => part.type === "error")).toEqual([]);
    expect(joined(parts, "text-delta")).toBe("Reading two files.");
    expect(
      parts
        .filter((part) => part.type === "tool-call")
        .map((part) => part.type === "tool-call" && part.input),
    ).toEqual(['{"path":"src/a.ts"}', '{"pattern":"TODO|FIXME"}']);
    expect(parts.find((part) => part.type === "finish")).toMatchObject({
      finishReason: { unified: "tool-calls" },
      usage: { inputTokens: { total: 150, cacheRead: 30 }, outputTokens: { total: 42 } },
    });
  });

  it("the SDKs surface a scripted HTTP error as an API call error with status and retry-after", async () => {
    server = await startModelServer([
      { status: 429, headers: { "retry-after": "3" } },
      { status: 529, errorMessage: "Overloaded right now" },
      { status: 503 },
    ]);
    const openai = createOpenAI({ baseURL: server.openaiBaseUrl, apiKey: "test" }).chat("gpt-5");
    const anthropic = createAnthropic({
      baseURL: `${server.anthropicBaseUrl}/v1`,
      apiKey: "test",
    }).languageModel("claude-sonnet-4-5");
    await expect(openai.doStream(options)).rejects.toMatchObject({
      statusCode: 429,
      isRetryable: true,
      responseHeaders: expect.objectContaining({ "retry-after": "3" }),
      message: "Rate limit reached for requests",
    });
    await expect(anthropic.doStream(options)).rejects.toMatchObject({
      statusCode: 529,
      isRetryable: true,
      message: "Overloaded right now",
    });
    const responses = createOpenAI({ baseURL: server.openaiBaseUrl, apiKey: "test" }).responses("gpt-5");
    await expect(responses.doStream(options)).rejects.toMatchObject({ statusCode: 503, isRetryable: true });
  });

  it("the SDKs report an in-stream error event after output as an error part", async () => {
    // After the first text delta of each protocol's event sequence.
    const partial = (streamErrorAfterEvents: number) => ({
      text: "partial answer",
      streamErrorAfterEvents,
      errorMessage: "Overloaded",
    });
    server = await startModelServer([partial(4), partial(4), partial(5)]);
    const anthropic = createAnthropic({
      baseURL: `${server.anthropicBaseUrl}/v1`,
      apiKey: "test",
    }).languageModel("claude-sonnet-4-5");
    const openai = createOpenAI({ baseURL: server.openaiBaseUrl, apiKey: "test" }).chat("gpt-5");
    const responses = createOpenAI({ baseURL: server.openaiBaseUrl, apiKey: "test" }).responses("gpt-5");
    for (const model of [anthropic, openai, responses]) {
      const parts = await collect((await model.doStream(options)).stream);
      expect(parts.find((part) => part.type === "text-delta")).toBeDefined();
      const error = parts.find((part) => part.type === "error");
      expect(error).toBeDefined();
      const cause = (error as { error: unknown }).error;
      expect(cause instanceof Error ? cause.message : JSON.stringify(cause)).toContain("Overloaded");
    }
  });

  it("@ai-sdk/openai (responses) throws an error event sent before any output, so it can be retried", async () => {
    server = await startModelServer({ text: "never", streamErrorAfterEvents: 2, errorMessage: "Overloaded" });
    const responses = createOpenAI({ baseURL: server.openaiBaseUrl, apiKey: "test" }).responses("gpt-5");
    await expect(responses.doStream(options)).rejects.toMatchObject({
      statusCode: 500,
      isRetryable: true,
      message: "Overloaded",
    });
  });

  it("@ai-sdk/anthropic reports a cut stream as an error part, not a clean finish", async () => {
    server = await startModelServer({ text: "partial answer that never ends", cutAfterEvents: 5 });
    const model = createAnthropic({ baseURL: `${server.anthropicBaseUrl}/v1`, apiKey: "test" }).languageModel(
      "claude-sonnet-4-5",
    );
    const { stream } = await model.doStream(options);
    await expect(collect(stream)).rejects.toThrow();
  });
});
