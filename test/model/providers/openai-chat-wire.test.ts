import { afterEach, expect, test } from "vitest";
import { userText } from "../../../src/model/messages.ts";
import { createModel } from "../../../src/model/registry.ts";
import { type ModelServer, startModelServer } from "../../support/model-server.ts";
import { richRequest } from "./transcript-fixture.ts";

let server: ModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

test('with api "chat", requests go to <OPENAI_BASE_URL>/chat/completions with a bearer key and ask for usage', async () => {
  server = await startModelServer({ text: "ok" });
  const model = createModel(
    "openai:gpt-4.1",
    { openai: { api: "chat" } },
    { OPENAI_API_KEY: "env-key", OPENAI_BASE_URL: server.openaiBaseUrl },
  );
  expect(
    (await model.stream({ system: "", messages: [userText("hi")], tools: [] }).result()).stopReason,
  ).toBe("stop");
  const [request] = server.requests;
  expect(request).toMatchObject({ protocol: "openai-chat", path: "/v1/chat/completions" });
  expect(request?.headers.authorization).toBe("Bearer env-key");
  expect(request?.body).toMatchObject({
    model: "gpt-4.1",
    stream: true,
    stream_options: { include_usage: true },
  });
  expect(request?.body).not.toHaveProperty("tools");
});

test("our messages reach the wire in the Chat Completions format", async () => {
  server = await startModelServer({ text: "ok" });
  const model = createModel(
    "openai:gpt-4.1",
    { openai: { apiKey: "k", baseUrl: server.openaiBaseUrl, api: "chat" } },
    {},
  );
  await model.stream(richRequest).result();
  const body = server.requests[0]!.body;
  expect(body).toMatchObject({ max_tokens: 1000, temperature: 0.2 });
  expect(body.messages).toEqual([
    { role: "system", content: "You are a coding agent." },
    {
      role: "user",
      content: [
        { type: "text", text: "What is in this screenshot?" },
        { type: "image_url", image_url: { url: "data:image/png;base64,iVBORw0KGgo=" } },
      ],
    },
    {
      // Chat Completions has no place for reasoning; it is left out.
      role: "assistant",
      content: "Let me check.",
      tool_calls: [
        { id: "call_1", type: "function", function: { name: "read", arguments: '{"path":"a.ts"}' } },
        { id: "call_2", type: "function", function: { name: "bash", arguments: '{"command":"ls"}' } },
      ],
    },
    { role: "tool", tool_call_id: "call_1", content: "export const a = 1;" },
    { role: "tool", tool_call_id: "call_2", content: expect.stringContaining("ls: permission denied") },
    { role: "user", content: "And now?" },
  ]);
  expect(body.tools).toEqual([
    {
      type: "function",
      function: {
        name: "read",
        description: "Read a file",
        parameters: { type: "object", properties: { path: { type: "string" } } },
      },
    },
    {
      type: "function",
      function: {
        name: "bash",
        description: "Run a command",
        parameters: { type: "object", properties: { command: { type: "string" } } },
      },
    },
  ]);
  expect(JSON.stringify(body)).not.toContain("cache_control");
});
