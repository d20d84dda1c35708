import { afterEach, describe, expect, it } from "vitest";
import { type ModelServer, startModelServer } from "./model-server.ts";
import { encryptedReasoning } from "./openai-responses-sse.ts";
import { parseSse } from "./sse.ts";

let server: ModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

interface ResponsesEvent {
  type: string;
  sequence_number: number;
  [field: string]: unknown;
}

async function post(body: Record<string, unknown>): Promise<Response> {
  return fetch(`${server!.openaiBaseUrl}/responses`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: "Bearer k" },
    body: JSON.stringify({ model: "gpt-5", input: [], ...body }),
  });
}

async function streamed(body: Record<string, unknown> = {}): Promise<ResponsesEvent[]> {
  const response = await post({ stream: true, ...body });
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
  const events = parseSse(await response.text());
  const parsed = events.map((event) => JSON.parse(event.data) as ResponsesEvent);
  // Every event is named twice, as OpenAI sends it: the SSE event line and its `type`.
  expect(events.map((event) => event.event)).toEqual(parsed.map((event) => event.type));
  expect(parsed.map((event) => event.sequence_number)).toEqual(parsed.map((_, index) => index));
  return parsed;
}

const ofType = (events: ResponsesEvent[], type: string) => events.filter((event) => event.type === type);

describe("OpenAI Responses API", () => {
  it("streams a message: created, in_progress, the item's text deltas, completed with usage", async () => {
    server = await startModelServer({ text: "Hello there", usage: { input: 20, output: 4, cacheRead: 6 } });
    const events = await streamed();
    expect(events.map((event) => event.type)).toEqual([
      "response.created",
      "response.in_progress",
      "response.output_item.added",
      "response.content_part.added",
      "response.output_text.delta",
      "response.output_text.delta",
      "response.output_text.delta",
      "response.output_text.done",
      "response.content_part.done",
      "response.output_item.done",
      "response.completed",
    ]);
    expect(events[0]).toMatchObject({
      response: { id: "resp_test_0", status: "in_progress", model: "gpt-5" },
    });
    expect(events[2]).toMatchObject({
      output_index: 0,
      item: { id: "msg_test_0", type: "message", status: "in_progress", role: "assistant", content: [] },
    });
    const deltas = ofType(events, "response.output_text.delta");
    expect(deltas.every((event) => event.item_id === "msg_test_0" && event.content_index === 0)).toBe(true);
    expect(deltas.map((event) => event.delta).join("")).toBe("Hello there");
    expect(events.at(-1)).toMatchObject({
      response: {
        status: "completed",
        output: [{ type: "message", content: [{ type: "output_text", text: "Hello there" }] }],
        usage: {
          input_tokens: 26,
          input_tokens_details: { cached_tokens: 6 },
          output_tokens: 4,
          total_tokens: 30,
        },
      },
    });
  });

  it("streams function calls as items: call_id and name first, then argument deltas", async () => {
    server = await startModelServer({
      toolCalls: [
        { name: "read", args: { path: "a.ts" } },
        { id: "call_mine", name: "bash", rawArgs: '{"command":' },
      ],
    });
    const events = await streamed();
    const added = ofType(events, "response.output_item.added");
    expect(added.map((event) => event.item)).toEqual([
      {
        id: "fc_test_0_0",
        type: "function_call",
        status: "in_progress",
        call_id: "call_test_0_0",
        name: "read",
        arguments: "",
      },
      {
        id: "fc_test_0_1",
        type: "function_call",
        status: "in_progress",
        call_id: "call_mine",
        name: "bash",
        arguments: "",
      },
    ]);
    const argumentsOf = (itemId: string) =>
      ofType(events, "response.function_call_arguments.delta").filter((event) => event.item_id === itemId);
    expect(argumentsOf("fc_test_0_0").length).toBeGreaterThan(1);
    expect(
      argumentsOf("fc_test_0_0")
        .map((event) => event.delta)
        .join(""),
    ).toBe('{"path":"a.ts"}');
    expect(
      argumentsOf("fc_test_0_1")
        .map((event) => event.delta)
        .join(""),
    ).toBe('{"command":');
    // No message item when a reply has only tool calls.
    expect(added.some((event) => (event.item as { type: string }).type === "message")).toBe(false);
  });

  it("streams reasoning as a summary; encrypted content only when included, on the finished item", async () => {
    server = await startModelServer({ reasoning: "Think first.", text: "ok" });
    const events = await streamed({ include: ["reasoning.encrypted_content"] });
    expect(ofType(events, "response.output_item.added")[0]).toMatchObject({
      output_index: 0,
      item: { id: "rs_test_0", type: "reasoning", encrypted_content: null, summary: [] },
    });
    const summary = ofType(events, "response.reasoning_summary_text.delta");
    expect(summary.length).toBeGreaterThan(1);
    expect(summary.map((event) => event.delta).join("")).toBe("Think first.");
    expect(ofType(events, "response.output_item.done")[0]).toMatchObject({
      item: {
        id: "rs_test_0",
        encrypted_content: encryptedReasoning("rs_test_0"),
        summary: [{ type: "summary_text", text: "Think first." }],
      },
    });
    // The message follows the reasoning item.
    expect(ofType(events, "response.output_item.added")[1]).toMatchObject({ output_index: 1 });

    const plain = await streamed();
    expect(ofType(plain, "response.output_item.done")[0]?.item).not.toHaveProperty("encrypted_content");
  });

  it("an empty reasoning is an item without a summary", async () => {
    server = await startModelServer({ reasoning: "", text: "ok" });
    const events = await streamed({ include: ["reasoning.encrypted_content"] });
    expect(ofType(events, "response.reasoning_summary_part.added")).toEqual([]);
    expect(ofType(events, "response.output_item.done")[0]).toMatchObject({
      item: { type: "reasoning", summary: [], encrypted_content: expect.any(String) },
    });
  });

  it("a reply cut by the token limit ends with response.incomplete (max_output_tokens)", async () => {
    server = await startModelServer({ text: "cut", stopReason: "length" });
    const events = await streamed();
    expect(events.at(-1)).toMatchObject({
      type: "response.incomplete",
      response: { status: "incomplete", incomplete_details: { reason: "max_output_tokens" } },
    });
  });

  it("an in-stream failure is an error event, then response.failed", async () => {
    server = await startModelServer({ text: "partial", streamErrorAfterEvents: 3, errorMessage: "boom" });
    const events = await streamed();
    expect(events.map((event) => event.type)).toEqual([
      "response.created",
      "response.in_progress",
      "response.output_item.added",
      "error",
      "response.failed",
    ]);
    expect(events[3]).toMatchObject({
      error: { type: "server_error", code: "server_error", message: "boom" },
    });
    expect(events[4]).toMatchObject({
      response: { status: "failed", error: { code: "server_error", message: "boom" } },
    });
  });

  it("answers a non-streaming request with one response object", async () => {
    server = await startModelServer({
      text: "Done.",
      toolCalls: [{ id: "call_1", name: "read", args: { path: "x" } }],
      usage: { input: 5, output: 6, cacheRead: 7, cacheWrite: 2 },
    });
    const response = await post({ stream: false, store: false });
    expect(await response.json()).toMatchObject({
      object: "response",
      status: "completed",
      store: false,
      output: [
        { type: "message", content: [{ type: "output_text", text: "Done." }] },
        { type: "function_call", call_id: "call_1", name: "read", arguments: '{"path":"x"}' },
      ],
      usage: { input_tokens: 14, input_tokens_details: { cached_tokens: 7, cache_write_tokens: 2 } },
    });
  });

  describe("refuses input OpenAI refuses, without using a scripted step", () => {
    const reasoning = (extra: Record<string, unknown>) => ({
      type: "reasoning",
      id: "rs_1",
      summary: [],
      ...extra,
    });

    it.each([
      ["an item_reference", [{ type: "item_reference", id: "rs_1" }], 404, /Item with id 'rs_1' not found/],
      ["reasoning without encrypted content", [reasoning({})], 404, /Items are not persisted when `store`/],
      [
        "encrypted content of another item",
        [reasoning({ encrypted_content: encryptedReasoning("rs_2") })],
        400,
        /encrypted content for item rs_1 could not be verified/,
      ],
      [
        "a function_call_output without its call",
        [{ type: "function_call_output", call_id: "call_x", output: "hi" }],
        400,
        /No tool call found for function call output with call_id call_x/,
      ],
    ])("%s (store: false)", async (_case, input, status, message) => {
      server = await startModelServer([{ text: "kept" }]);
      const refused = await post({ store: false, input });
      expect(refused.status).toBe(status);
      expect(await refused.json()).toMatchObject({ error: { message: expect.stringMatching(message) } });
      const valid = [
        reasoning({ encrypted_content: encryptedReasoning("rs_1") }),
        { type: "function_call", call_id: "call_x", name: "read", arguments: "{}" },
        { type: "function_call_output", call_id: "call_x", output: "hi" },
      ];
      expect(await (await post({ store: false, input: valid })).json()).toMatchObject({
        output: [{ content: [{ text: "kept" }] }],
      });
    });
  });

  it.each([
    [401, "invalid_request_error", "invalid_api_key"],
    [429, "requests", "rate_limit_exceeded"],
    [500, "server_error", null],
  ])("answers status %i with an OpenAI error body of type %s", async (status, type, code) => {
    server = await startModelServer({ status, errorMessage: "scripted failure" });
    const response = await post({ stream: true });
    expect(response.status).toBe(status);
    expect(response.headers.get("x-request-id")).toBe("req_test_0");
    expect(await response.json()).toEqual({
      error: { message: "scripted failure", type, param: null, code },
    });
  });
});
