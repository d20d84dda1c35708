import { afterEach, describe, expect, test } from "vitest";
import { userText } from "../../../src/model/messages.ts";
import type { ModelRequest } from "../../../src/model/model.ts";
import { type ModelServer, type ServerStep, startModelServer } from "../../support/model-server.ts";
import { encryptedReasoning } from "../../support/openai-responses-sse.ts";
import { collect, deltas, modelFor, PROTOCOLS, type Protocol } from "./http-models.ts";

const request: ModelRequest = {
  system: "You are terse.",
  messages: [userText("hi")],
  tools: [
    {
      name: "read",
      description: "Read a file",
      inputSchema: { type: "object", properties: { path: { type: "string" } } },
    },
  ],
};

let server: ModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function run(protocol: Protocol, step: ServerStep) {
  server = await startModelServer([step]);
  return collect(modelFor(protocol, server).stream(request));
}

describe.each(PROTOCOLS)("%s adapter streaming", (protocol) => {
  test("text arrives as several deltas and one text part", async () => {
    const { events, message } = await run(protocol, { text: "Hello there, streaming world" });
    expect(deltas(events, "text_delta").length).toBeGreaterThan(1);
    expect(deltas(events, "text_delta").join("")).toBe("Hello there, streaming world");
    expect(message).toMatchObject({
      role: "assistant",
      stopReason: "stop",
      content: [{ type: "text", text: "Hello there, streaming world" }],
      model: protocol === "anthropic" ? "anthropic:claude-sonnet-4-5" : "openai:gpt-5",
    });
  });

  test("a tool call streams its arguments and keeps the exact raw text", async () => {
    const { events, message } = await run(protocol, {
      toolCalls: [{ id: "call_1", name: "read", args: { path: "src/a.ts" } }],
    });
    const types = events.map((event) => event.type);
    expect(types.filter((type) => type === "tool_call_delta").length).toBeGreaterThan(1);
    expect(types.indexOf("tool_call_start")).toBeLessThan(types.indexOf("tool_call_end"));
    const streamed = events
      .flatMap((event) => (event.type === "tool_call_delta" ? [event.delta] : []))
      .join("");
    expect(streamed).toBe('{"path":"src/a.ts"}');
    expect(events.find((event) => event.type === "tool_call_end")).toEqual({
      type: "tool_call_end",
      id: "call_1",
      name: "read",
      rawArgs: '{"path":"src/a.ts"}',
    });
    expect(message.stopReason).toBe("tool_calls");
    expect(message.content).toEqual([
      {
        type: "tool_call",
        id: "call_1",
        name: "read",
        args: { path: "src/a.ts" },
        rawArgs: '{"path":"src/a.ts"}',
      },
    ]);
  });

  test("several tool calls in one message, text first, malformed arguments kept raw", async () => {
    const { events, message } = await run(protocol, {
      text: "Reading both.",
      toolCalls: [
        { id: "c1", name: "read", args: { path: "a.ts" } },
        { id: "c2", name: "read", args: { path: "b.ts" } },
        { id: "c3", name: "bash", rawArgs: '{"command": "ls' },
      ],
    });
    expect(
      events
        .filter((event) => event.type === "tool_call_start")
        .map((event) => event.type === "tool_call_start" && event.id),
    ).toEqual(["c1", "c2", "c3"]);
    expect(message.content).toEqual([
      { type: "text", text: "Reading both." },
      { type: "tool_call", id: "c1", name: "read", args: { path: "a.ts" }, rawArgs: '{"path":"a.ts"}' },
      { type: "tool_call", id: "c2", name: "read", args: { path: "b.ts" }, rawArgs: '{"path":"b.ts"}' },
      { type: "tool_call", id: "c3", name: "bash", args: undefined, rawArgs: '{"command": "ls' },
    ]);
    expect(message.stopReason).toBe("tool_calls");
  });

  test("usage reports input, output and cache tokens with the cost in dollars", async () => {
    // Chat Completions has no cache writes; the Responses API reports them as cache_write_tokens.
    const usage = {
      input: 1000,
      output: 200,
      cacheRead: 3000,
      cacheWrite: protocol === "openai-chat" ? 0 : 500,
    };
    const { events, message } = await run(protocol, { text: "ok", usage });
    // anthropic:claude-sonnet-4-5 = $3 / $15 / $0.30 read / $3.75 write;
    // openai:gpt-5 = $1.25 / $10 / $0.125 read / $1.25 write (OpenAI charges writes as input).
    const cost =
      protocol === "anthropic"
        ? (1000 * 3 + 200 * 15 + 3000 * 0.3 + 500 * 3.75) / 1e6
        : (1000 * 1.25 + 200 * 10 + 3000 * 0.125 + usage.cacheWrite * 1.25) / 1e6;
    expect(message.usage).toEqual({ ...usage, cost: expect.closeTo(cost, 12) });
    expect(events.filter((event) => event.type === "usage")).toEqual([
      { type: "usage", usage: message.usage },
    ]);
    expect(events.at(-2)?.type).toBe("usage");
  });

  test("a reply cut by the token limit stops with length", async () => {
    const { message } = await run(protocol, { text: "partial answ", stopReason: "length" });
    expect(message).toMatchObject({
      stopReason: "length",
      content: [{ type: "text", text: "partial answ" }],
    });
  });
});

describe("anthropic reasoning", () => {
  test("thinking streams as reasoning deltas and keeps its signature", async () => {
    const { events, message } = await run("anthropic", {
      reasoning: "Let me think about it.",
      text: "Done.",
    });
    expect(deltas(events, "reasoning_delta").join("")).toBe("Let me think about it.");
    expect(events.findIndex((event) => event.type === "reasoning_delta")).toBeLessThan(
      events.findIndex((event) => event.type === "text_delta"),
    );
    expect(message.content).toEqual([
      {
        type: "reasoning",
        text: "Let me think about it.",
        signature: Buffer.from("test-signature-0").toString("base64"),
      },
      { type: "text", text: "Done." },
    ]);
  });
});

describe("openai (Responses API) reasoning", () => {
  test("a reasoning summary streams as reasoning deltas; the part keeps the item and its encrypted content", async () => {
    const { events, message } = await run("openai", { reasoning: "Let me think about it.", text: "Done." });
    expect(deltas(events, "reasoning_delta").join("")).toBe("Let me think about it.");
    expect(deltas(events, "reasoning_delta").length).toBeGreaterThan(1);
    expect(events.findIndex((event) => event.type === "reasoning_delta")).toBeLessThan(
      events.findIndex((event) => event.type === "text_delta"),
    );
    expect(message.content).toEqual([
      {
        type: "reasoning",
        text: "Let me think about it.",
        item: { id: "rs_test_0", encryptedContent: encryptedReasoning("rs_test_0") },
      },
      { type: "text", text: "Done." },
    ]);
  });

  test("a reasoning item without a summary is kept, empty, so it can be sent back", async () => {
    const { events, message } = await run("openai", {
      reasoning: "",
      toolCalls: [{ name: "read", args: {} }],
    });
    expect(deltas(events, "reasoning_delta")).toEqual([]);
    expect(message.content[0]).toEqual({
      type: "reasoning",
      text: "",
      item: { id: "rs_test_0", encryptedContent: encryptedReasoning("rs_test_0") },
    });
    expect(message.stopReason).toBe("tool_calls");
  });
});
