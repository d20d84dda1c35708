import { afterEach, describe, expect, it } from "vitest";
import { type ModelServer, startModelServer } from "./model-server.ts";
import { parseSse } from "./sse.ts";

let server: ModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function post(body: Record<string, unknown>): Promise<Response> {
  return fetch(`${server!.anthropicBaseUrl}/v1/messages`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-api-key": "k", "anthropic-version": "2023-06-01" },
    body: JSON.stringify({ model: "claude-sonnet-4-5", max_tokens: 100, messages: [], ...body }),
  });
}

async function streamedEvents(body: Record<string, unknown> = {}) {
  const response = await post({ stream: true, ...body });
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
  return parseSse(await response.text()).map((event) => {
    const data = JSON.parse(event.data) as { type: string } & Record<string, unknown>;
    // Every Anthropic event names itself twice; the two must agree.
    expect(event.event).toBe(data.type);
    return data;
  });
}

describe("Anthropic Messages API", () => {
  it("streams a text reply as message_start, ping, a text block, message_delta, message_stop", async () => {
    server = await startModelServer({ text: "Hello there", usage: { input: 12, output: 3 } });
    const events = await streamedEvents();
    expect(events.map((event) => event.type)).toEqual([
      "message_start",
      "ping",
      "content_block_start",
      "content_block_delta",
      "content_block_delta",
      "content_block_delta",
      "content_block_stop",
      "message_delta",
      "message_stop",
    ]);
    expect(events[0]).toMatchObject({
      message: {
        id: "msg_test_0",
        type: "message",
        role: "assistant",
        model: "claude-sonnet-4-5",
        content: [],
        stop_reason: null,
        usage: { input_tokens: 12, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 },
      },
    });
    expect(events[2]).toEqual({
      type: "content_block_start",
      index: 0,
      content_block: { type: "text", text: "" },
    });
    const text = events.flatMap((event) =>
      event.type === "content_block_delta" ? [(event.delta as { text: string }).text] : [],
    );
    expect(text.join("")).toBe("Hello there");
    expect(events[7]).toEqual({
      type: "message_delta",
      delta: { stop_reason: "end_turn", stop_sequence: null },
      usage: { output_tokens: 3 },
    });
  });

  it("streams thinking with a signature, then text, then tool_use blocks with chunked partial_json", async () => {
    server = await startModelServer({
      reasoning: "Think first.",
      text: "Looking.",
      toolCalls: [
        { name: "read", args: { path: "a.ts" } },
        { id: "toolu_mine", name: "bash", rawArgs: '{"command":"ls' },
      ],
      usage: { cacheRead: 50, cacheWrite: 8 },
    });
    const events = await streamedEvents();
    expect(events[0]).toMatchObject({
      message: { usage: { cache_read_input_tokens: 50, cache_creation_input_tokens: 8 } },
    });
    const starts = events.filter((event) => event.type === "content_block_start");
    expect(starts.map((event) => [event.index, event.content_block])).toEqual([
      [0, { type: "thinking", thinking: "", signature: "" }],
      [1, { type: "text", text: "" }],
      [2, { type: "tool_use", id: "toolu_test_0_0", name: "read", input: {} }],
      [3, { type: "tool_use", id: "toolu_mine", name: "bash", input: {} }],
    ]);
    const deltas = (index: number) =>
      events
        .filter((event) => event.type === "content_block_delta" && event.index === index)
        .map((event) => event.delta as Record<string, string>);
    expect(
      deltas(0)
        .filter((delta) => delta.type === "thinking_delta")
        .map((delta) => delta.thinking),
    ).toHaveLength(3);
    expect(deltas(0).at(-1)).toEqual({ type: "signature_delta", signature: expect.stringMatching(/.+/) });
    const json = deltas(2).map((delta) => delta.partial_json);
    expect(json[0]).toBe("");
    expect(json.length).toBeGreaterThan(2);
    expect(JSON.parse(json.join(""))).toEqual({ path: "a.ts" });
    expect(
      deltas(3)
        .map((delta) => delta.partial_json)
        .join(""),
    ).toBe('{"command":"ls');
    expect(events.filter((event) => event.type === "content_block_stop").map((event) => event.index)).toEqual(
      [0, 1, 2, 3],
    );
    expect(events.at(-2)).toMatchObject({ delta: { stop_reason: "tool_use" } });
  });

  it("maps stopReason length to max_tokens", async () => {
    server = await startModelServer({ text: "cut", stopReason: "length" });
    const events = await streamedEvents();
    expect(events.at(-2)).toMatchObject({ type: "message_delta", delta: { stop_reason: "max_tokens" } });
  });

  it("answers a non-streaming request with one message JSON", async () => {
    server = await startModelServer({
      reasoning: "hm",
      text: "Done.",
      toolCalls: [{ id: "toolu_1", name: "read", args: { path: "x" } }],
      usage: { input: 5, output: 6, cacheRead: 7, cacheWrite: 8 },
    });
    const response = await post({ stream: false });
    expect(response.headers.get("content-type")).toBe("application/json");
    expect(await response.json()).toEqual({
      id: "msg_test_0",
      type: "message",
      role: "assistant",
      model: "claude-sonnet-4-5",
      content: [
        { type: "thinking", thinking: "hm", signature: expect.any(String) },
        { type: "text", text: "Done." },
        { type: "tool_use", id: "toolu_1", name: "read", input: { path: "x" } },
      ],
      stop_reason: "tool_use",
      stop_sequence: null,
      usage: {
        input_tokens: 5,
        output_tokens: 6,
        cache_read_input_tokens: 7,
        cache_creation_input_tokens: 8,
      },
    });
  });

  it.each([
    [400, "invalid_request_error"],
    [401, "authentication_error"],
    [429, "rate_limit_error"],
    [500, "api_error"],
    [529, "overloaded_error"],
  ])("answers status %i with an Anthropic %s body", async (status, type) => {
    server = await startModelServer({ status });
    const response = await post({ stream: true });
    expect(response.status).toBe(status);
    expect(response.headers.get("request-id")).toBe("req_test_0");
    expect(await response.json()).toEqual({
      type: "error",
      error: { type, message: expect.stringMatching(/.+/) },
    });
  });

  it("uses the scripted error message", async () => {
    server = await startModelServer({
      status: 400,
      errorMessage: "prompt is too long: 210000 tokens > 200000 maximum",
    });
    const response = await post({ stream: true });
    expect(await response.json()).toEqual({
      type: "error",
      error: { type: "invalid_request_error", message: "prompt is too long: 210000 tokens > 200000 maximum" },
    });
  });
});
