import { afterEach, expect, test } from "vitest";
import { type AssistantMessage, emptyUsage, userText } from "../../../src/model/messages.ts";
import { createModel } from "../../../src/model/registry.ts";
import { type ModelServer, startModelServer } from "../../support/model-server.ts";
import { modelFor } from "./http-models.ts";
import { richRequest } from "./transcript-fixture.ts";

const ephemeral = { type: "ephemeral" };

const reply = (text: string): AssistantMessage => ({
  role: "assistant",
  content: [{ type: "text", text }],
  stopReason: "stop",
  usage: emptyUsage(),
  model: "anthropic:claude-sonnet-4-5",
});

let server: ModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function sent(request = richRequest) {
  server = await startModelServer({ text: "ok" });
  await modelFor("anthropic", server).stream(request).result();
  const recorded = server.requests[0];
  if (!recorded) throw new Error("no request");
  return recorded;
}

test("requests go to <ANTHROPIC_BASE_URL>/v1/messages with the key and API version", async () => {
  server = await startModelServer({ text: "ok" });
  const model = createModel(
    "anthropic:claude-sonnet-4-5",
    {},
    { ANTHROPIC_API_KEY: "env-key", ANTHROPIC_BASE_URL: server.anthropicBaseUrl },
  );
  expect(
    (await model.stream({ system: "", messages: [userText("hi")], tools: [] }).result()).stopReason,
  ).toBe("stop");
  const [request] = server.requests;
  expect(request?.path).toBe("/v1/messages");
  expect(request?.headers["x-api-key"]).toBe("env-key");
  expect(request?.headers["anthropic-version"]).toBeDefined();
  expect(request?.body).toMatchObject({ model: "claude-sonnet-4-5", stream: true });
});

test("the system prompt, the last tool and the newest messages carry cache_control", async () => {
  const { body } = await sent();
  expect(body.system).toEqual([{ type: "text", text: "You are a coding agent.", cache_control: ephemeral }]);
  const tools = body.tools as Array<Record<string, unknown>>;
  expect(tools.map((tool) => tool.cache_control)).toEqual([undefined, ephemeral]);
  const messages = body.messages as Array<{ role: string; content: Array<Record<string, unknown>> }>;
  const last = messages.at(-1)!;
  // Tool results and the user's next text share one Anthropic user message; both are breakpoints.
  expect(last.content.map((part) => [part.type, part.cache_control])).toEqual([
    ["tool_result", undefined],
    ["tool_result", ephemeral],
    ["text", ephemeral],
  ]);
  expect(messages[0]!.content.some((part) => part.cache_control)).toBe(false);
});

test("our messages reach the wire in Anthropic's format", async () => {
  const { body } = await sent();
  expect(body).toMatchObject({
    model: "claude-sonnet-4-5",
    max_tokens: 1000,
    temperature: 0.2,
    stream: true,
  });
  expect(body.messages).toEqual([
    {
      role: "user",
      content: [
        { type: "text", text: "What is in this screenshot?" },
        { type: "image", source: { type: "base64", media_type: "image/png", data: "iVBORw0KGgo=" } },
      ],
    },
    {
      role: "assistant",
      content: [
        { type: "thinking", thinking: "I should look at the files.", signature: "c2lnbmF0dXJl" },
        { type: "text", text: "Let me check." },
        { type: "tool_use", id: "call_1", name: "read", input: { path: "a.ts" } },
        { type: "tool_use", id: "call_2", name: "bash", input: { command: "ls" } },
      ],
    },
    {
      role: "user",
      content: [
        { type: "tool_result", tool_use_id: "call_1", content: "export const a = 1;" },
        {
          type: "tool_result",
          tool_use_id: "call_2",
          content: "ls: permission denied",
          is_error: true,
          cache_control: ephemeral,
        },
        { type: "text", text: "And now?", cache_control: ephemeral },
      ],
    },
  ]);
  expect(
    (body.tools as Array<Record<string, unknown>>).map((tool) => [
      tool.name,
      tool.description,
      tool.input_schema,
    ]),
  ).toEqual([
    ["read", "Read a file", { type: "object", properties: { path: { type: "string" } } }],
    ["bash", "Run a command", { type: "object", properties: { command: { type: "string" } } }],
  ]);
});

test("a streamed reasoning signature round-trips into the next request", async () => {
  server = await startModelServer([{ reasoning: "thinking hard", text: "answer" }, { text: "ok" }]);
  const model = modelFor("anthropic", server);
  const first = await model.stream({ system: "", messages: [userText("q1")], tools: [] }).result();
  await model.stream({ system: "", messages: [userText("q1"), first, userText("q2")], tools: [] }).result();
  const messages = server.requests[1]!.body.messages as Array<{ role: string; content: unknown[] }>;
  expect(messages[1]).toEqual({
    role: "assistant",
    content: [
      {
        type: "thinking",
        thinking: "thinking hard",
        signature: Buffer.from("test-signature-0").toString("base64"),
      },
      { type: "text", text: "answer" },
    ],
  });
});

test("on a longer transcript, the older user messages carry no breakpoint", async () => {
  const { body } = await sent({
    system: "s",
    tools: [],
    messages: [userText("one"), reply("two"), userText("three"), reply("four"), userText("five")],
  });
  const marks = (body.messages as Array<{ content: Array<Record<string, unknown>> }>).map((message) =>
    message.content.some((part) => part.cache_control),
  );
  expect(marks).toEqual([false, false, true, false, true]);
});
