import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, expect, test } from "vitest";
import { type AssistantMessage, emptyUsage, type Message, userText } from "../../../src/model/messages.ts";
import type { ModelRequest } from "../../../src/model/model.ts";
import { createModel } from "../../../src/model/registry.ts";
import { type ModelServer, startModelServer } from "../../support/model-server.ts";
import { openaiChatStreamEvents } from "../../support/openai-chat-sse.ts";
import { encryptedReasoning } from "../../support/openai-responses-sse.ts";
import { encodeSse } from "../../support/sse.ts";
import { collect } from "./http-models.ts";
import { richRequest } from "./transcript-fixture.ts";

let server: ModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const read = {
  name: "read",
  description: "Read a file",
  inputSchema: { type: "object", properties: { path: { type: "string" } } },
};

function openai(model: string) {
  return createModel(`openai:${model}`, { openai: { apiKey: "k", baseUrl: server!.openaiBaseUrl } }, {});
}

function toolResult(callId: string, content: string): Message {
  return {
    role: "tool_result",
    content: [{ type: "tool_result", toolCallId: callId, toolName: "read", content, isError: false }],
  };
}

test("openai: models use <OPENAI_BASE_URL>/responses by default, statelessly (store: false)", async () => {
  server = await startModelServer({ text: "ok" });
  const model = createModel(
    "openai:gpt-4.1",
    {},
    { OPENAI_API_KEY: "env-key", OPENAI_BASE_URL: server.openaiBaseUrl },
  );
  expect(
    (await model.stream({ system: "", messages: [userText("hi")], tools: [] }).result()).stopReason,
  ).toBe("stop");
  const [request] = server.requests;
  expect(request).toMatchObject({
    protocol: "openai",
    path: "/v1/responses",
    headers: { authorization: "Bearer env-key" },
    body: { model: "gpt-4.1", stream: true, store: false },
  });
  expect(request?.body).not.toHaveProperty("tools");
  // gpt-4.1 does not reason: no reasoning settings and nothing to include.
  expect(request?.body).not.toHaveProperty("reasoning");
  expect(request?.body).not.toHaveProperty("include");
});

test("a reasoning model is asked for reasoning summaries and the encrypted content", async () => {
  server = await startModelServer({ text: "ok" });
  await openai("gpt-5")
    .stream({ system: "", messages: [userText("hi")], tools: [] })
    .result();
  expect(server.requests[0]?.body).toMatchObject({
    model: "gpt-5",
    store: false,
    reasoning: { summary: "auto" },
    include: ["reasoning.encrypted_content"],
  });
});

test("our messages reach the wire as Responses API input items", async () => {
  server = await startModelServer({ text: "ok" });
  await openai("gpt-4.1").stream(richRequest).result();
  const body = server.requests[0]!.body;
  expect(body).toMatchObject({ max_output_tokens: 1000, temperature: 0.2 });
  expect(body.input).toEqual([
    { role: "system", content: "You are a coding agent." },
    {
      role: "user",
      content: [
        { type: "input_text", text: "What is in this screenshot?" },
        { type: "input_image", image_url: "data:image/png;base64,iVBORw0KGgo=" },
      ],
    },
    // The fixture's reasoning is Anthropic's (a signature, no OpenAI item): it is left out.
    { role: "assistant", content: "Let me check." },
    { type: "function_call", call_id: "call_1", name: "read", arguments: '{"path":"a.ts"}' },
    { type: "function_call", call_id: "call_2", name: "bash", arguments: '{"command":"ls"}' },
    { type: "function_call_output", call_id: "call_1", output: "export const a = 1;" },
    {
      type: "function_call_output",
      call_id: "call_2",
      output: expect.stringContaining("ls: permission denied"),
    },
    { role: "user", content: [{ type: "input_text", text: "And now?" }] },
  ]);
  expect(body.tools).toEqual([
    {
      type: "function",
      name: "read",
      description: "Read a file",
      parameters: { type: "object", properties: { path: { type: "string" } } },
      strict: false,
    },
    {
      type: "function",
      name: "bash",
      description: "Run a command",
      parameters: { type: "object", properties: { command: { type: "string" } } },
      strict: false,
    },
  ]);
});

test("a reasoning model gets the system prompt as a developer message and no temperature", async () => {
  server = await startModelServer({ text: "ok" });
  await openai("gpt-5").stream(richRequest).result();
  const body = server.requests[0]!.body;
  expect(body.input).toContainEqual({ role: "developer", content: "You are a coding agent." });
  expect(body).not.toHaveProperty("temperature");
});

test("reasoning items round-trip: multi-turn tool use sends each one back with its encrypted content", async () => {
  server = await startModelServer([
    { reasoning: "I need a.ts first.", toolCalls: [{ id: "call_a", name: "read", args: { path: "a.ts" } }] },
    // No summary this time: the item still goes back.
    { reasoning: "", toolCalls: [{ id: "call_b", name: "read", args: { path: "b.ts" } }] },
    { text: "a.ts and b.ts agree." },
  ]);
  const model = openai("gpt-5");
  const messages: Message[] = [userText("Compare a.ts and b.ts")];
  const turn = async () => {
    const { message } = await collect(model.stream({ system: "Be brief.", messages, tools: [read] }));
    messages.push(message);
    return message;
  };
  const first = await turn();
  messages.push(toolResult("call_a", "export const a = 1;"));
  const second = await turn();
  messages.push(toolResult("call_b", "export const b = 1;"));
  const third = await turn();

  expect(first.content[0]).toEqual({
    type: "reasoning",
    text: "I need a.ts first.",
    item: { id: "rs_test_0", encryptedContent: encryptedReasoning("rs_test_0") },
  });
  expect(third).toMatchObject({
    stopReason: "stop",
    content: [{ type: "text", text: "a.ts and b.ts agree." }],
  });
  // The server verifies every item it gets back: all three requests were accepted.
  expect(server.requests).toHaveLength(3);
  expect(second.stopReason).toBe("tool_calls");
  expect(server.requests[2]!.body.input).toEqual([
    { role: "developer", content: "Be brief." },
    { role: "user", content: [{ type: "input_text", text: "Compare a.ts and b.ts" }] },
    {
      type: "reasoning",
      id: "rs_test_0",
      encrypted_content: encryptedReasoning("rs_test_0"),
      summary: [{ type: "summary_text", text: "I need a.ts first." }],
    },
    { type: "function_call", call_id: "call_a", name: "read", arguments: '{"path":"a.ts"}' },
    { type: "function_call_output", call_id: "call_a", output: "export const a = 1;" },
    { type: "reasoning", id: "rs_test_1", encrypted_content: encryptedReasoning("rs_test_1"), summary: [] },
    { type: "function_call", call_id: "call_b", name: "read", arguments: '{"path":"b.ts"}' },
    { type: "function_call_output", call_id: "call_b", output: "export const b = 1;" },
  ]);
});

test("reasoning that cannot be sent back is left out instead of failing the request", async () => {
  server = await startModelServer({ text: "ok" });
  const assistant = (content: AssistantMessage["content"]): AssistantMessage => ({
    role: "assistant",
    content,
    stopReason: "tool_calls",
    usage: emptyUsage(),
    model: "openai:gpt-5",
  });
  const call = { type: "tool_call", id: "call_1", name: "read", args: {}, rawArgs: "{}" } as const;
  const request: ModelRequest = {
    system: "",
    tools: [read],
    messages: [
      userText("go"),
      // An item whose encrypted content never arrived (e.g. written by an older agentry).
      assistant([{ type: "reasoning", text: "partial", item: { id: "rs_old" } }, call]),
      toolResult("call_1", "one"),
      // Another provider's reasoning, after a model switch.
      assistant([
        { type: "reasoning", text: "claude thinks", signature: "sig" },
        { ...call, id: "call_2" },
      ]),
      toolResult("call_2", "two"),
    ],
  };
  const { message } = await collect(openai("gpt-5").stream(request));
  expect(message.stopReason).toBe("stop");
  const input = server.requests[0]!.body.input as Array<{ type?: string }>;
  expect(input.filter((item) => item.type === "reasoning")).toEqual([]);
  expect(input.filter((item) => item.type === "function_call")).toHaveLength(2);
});

test('with api "chat" the same conversation goes to Chat Completions, without the reasoning', async () => {
  server = await startModelServer([
    { reasoning: "hmm", toolCalls: [{ id: "call_a", name: "read", args: {} }] },
    { text: "ok" },
  ]);
  const model = createModel(
    "openai:gpt-5",
    { openai: { apiKey: "k", baseUrl: server.openaiBaseUrl, api: "chat" } },
    {},
  );
  const messages: Message[] = [userText("go")];
  messages.push((await collect(model.stream({ system: "", messages, tools: [read] }))).message);
  messages.push(toolResult("call_a", "done"));
  await collect(model.stream({ system: "", messages, tools: [read] }));
  expect(server.requests.map((request) => request.protocol)).toEqual(["openai-chat", "openai-chat"]);
  expect(JSON.stringify(server.requests[1]!.body)).not.toContain("reasoning");
});

test("a server without the Responses API gets an error naming the setting that switches to Chat Completions", async () => {
  server = await startModelServer([{ status: 404, errorMessage: "Not Found" }]);
  const { message } = await collect(
    openai("gpt-5").stream({ system: "", messages: [userText("hi")], tools: [] }),
  );
  expect(message).toMatchObject({ stopReason: "error", retryable: false });
  expect(message.errorMessage).toMatch(
    /HTTP 404.*; set "api": "chat" under providers\.openai in agentry\.json for a server that speaks only Chat Completions\.$/,
  );
});

test("a server that answers /responses with a Chat Completions stream: not retried, and told what to set", async () => {
  // Some OpenAI look-alikes accept any path and always stream Chat Completions chunks.
  const chatOnly = createServer((req, res) => {
    req.resume();
    res.writeHead(200, { "content-type": "text/event-stream" });
    for (const event of openaiChatStreamEvents(
      { text: "hello" },
      { model: "m", call: 0, includeUsage: false },
    ))
      res.write(encodeSse(event));
    res.end();
  });
  await new Promise<void>((resolve) => chatOnly.listen(0, "127.0.0.1", resolve));
  try {
    const { port } = chatOnly.address() as AddressInfo;
    const model = createModel(
      "openai:gpt-5",
      {
        openai: { apiKey: "k", baseUrl: `http://127.0.0.1:${port}/v1` },
        retry: { maxRetries: 2, baseDelayMs: 1 },
      },
      {},
    );
    const { events, message } = await collect(
      model.stream({ system: "", messages: [userText("hi")], tools: [] }),
    );
    expect(events.some((event) => event.type === "retry")).toBe(false);
    expect(message).toMatchObject({ stopReason: "error", retryable: false });
    expect(message.errorMessage).toBe(
      'OpenAI sent a reply agentry could not read: Received a Chat Completions stream while using the OpenAI Responses API. If the server speaks another API: set "api": "chat" under providers.openai in agentry.json for a server that speaks only Chat Completions.',
    );
  } finally {
    await new Promise((resolve) => chatOnly.close(resolve));
  }
});
