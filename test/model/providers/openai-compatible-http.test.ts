import { afterEach, expect, test } from "vitest";
import { userText } from "../../../src/model/messages.ts";
import type { ModelRequest } from "../../../src/model/model.ts";
import { createModel } from "../../../src/model/registry.ts";
import { type ModelServer, startModelServer } from "../../support/model-server.ts";
import { collect } from "./http-models.ts";

const request: ModelRequest = {
  system: "sys",
  messages: [userText("hi")],
  tools: [{ name: "read", description: "Read a file", inputSchema: { type: "object" } }],
};

let server: ModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

test("ollama: OLLAMA_HOST without a scheme, no key, streamed text and tool calls", async () => {
  server = await startModelServer({
    text: "local answer",
    toolCalls: [{ id: "t1", name: "read", args: { path: "x" } }],
    usage: { input: 7, output: 3 },
  });
  const model = createModel("ollama:qwen3:8b", {}, { OLLAMA_HOST: new URL(server.url).host });
  const { events, message } = await collect(model.stream(request));
  expect(events.some((event) => event.type === "text_delta")).toBe(true);
  expect(message).toMatchObject({
    model: "ollama:qwen3:8b",
    stopReason: "tool_calls",
    content: [
      { type: "text", text: "local answer" },
      { type: "tool_call", id: "t1", name: "read", args: { path: "x" }, rawArgs: '{"path":"x"}' },
    ],
    usage: { input: 7, output: 3, cacheRead: 0, cacheWrite: 0 },
  });
  // Local models have no list price.
  expect(message.usage.cost).toBeUndefined();
  const [recorded] = server.requests;
  expect(recorded?.path).toBe("/v1/chat/completions");
  expect(recorded?.body).toMatchObject({
    model: "qwen3:8b",
    stream: true,
    stream_options: { include_usage: true },
  });
  expect(recorded?.headers.authorization).toBeUndefined();
});

test("a named endpoint sends its key and headers; settings can price it", async () => {
  server = await startModelServer({ text: "routed", usage: { input: 1_000_000, output: 0 } });
  const model = createModel(
    "openai-compatible:router/vendor/model-x",
    {
      openaiCompatible: {
        router: { baseUrl: server.openaiBaseUrl, apiKey: "router-key", headers: { "x-title": "agentry" } },
      },
      prices: {
        "openai-compatible:router/vendor/model-x": { input: 2, output: 4, cacheRead: 0, cacheWrite: 0 },
      },
    },
    {},
  );
  const { message } = await collect(model.stream(request));
  expect(message).toMatchObject({
    model: "openai-compatible:router/vendor/model-x",
    stopReason: "stop",
    usage: { cost: 2 },
  });
  const [recorded] = server.requests;
  expect(recorded?.headers.authorization).toBe("Bearer router-key");
  expect(recorded?.headers["x-title"]).toBe("agentry");
  expect(recorded?.body.model).toBe("vendor/model-x");
});

test("errors from a compatible server name the endpoint's settings", async () => {
  server = await startModelServer({ status: 404, errorMessage: "model not found" });
  const model = createModel("ollama:nope", { retry: { maxRetries: 0 } }, { OLLAMA_BASE_URL: server.url });
  const { message } = await collect(model.stream(request));
  expect(message).toMatchObject({ stopReason: "error", retryable: false });
  expect(message.errorMessage).toMatch(
    /ollama returned HTTP 404.*model not found.*Check the model name "nope".*OLLAMA_BASE_URL/,
  );
});
