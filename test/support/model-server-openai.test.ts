import { afterEach, describe, expect, it } from "vitest";
import { type ModelServer, startModelServer } from "./model-server.ts";
import { parseSse } from "./sse.ts";

let server: ModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

interface Chunk {
  object: string;
  model: string;
  choices: Array<{ index: number; delta: Record<string, unknown>; finish_reason: string | null }>;
  usage?: Record<string, unknown> | null;
}

async function post(body: Record<string, unknown>): Promise<Response> {
  return fetch(`${server!.openaiBaseUrl}/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: "Bearer k" },
    body: JSON.stringify({ model: "gpt-5", messages: [], ...body }),
  });
}

async function streamedChunks(body: Record<string, unknown> = {}): Promise<Chunk[]> {
  const response = await post({ stream: true, stream_options: { include_usage: true }, ...body });
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
  const events = parseSse(await response.text());
  expect(events.every((event) => event.event === undefined)).toBe(true);
  expect(events.at(-1)?.data).toBe("[DONE]");
  return events.slice(0, -1).map((event) => JSON.parse(event.data) as Chunk);
}

describe("OpenAI Chat Completions API", () => {
  it("streams role, content deltas, finish_reason stop, then a usage chunk and [DONE]", async () => {
    server = await startModelServer({ text: "Hello there", usage: { input: 20, output: 4, cacheRead: 6 } });
    const chunks = await streamedChunks();
    expect(chunks.every((chunk) => chunk.object === "chat.completion.chunk" && chunk.model === "gpt-5")).toBe(
      true,
    );
    expect(chunks[0]?.choices[0]?.delta).toEqual({ role: "assistant", content: "", refusal: null });
    const content = chunks.flatMap((chunk) => chunk.choices.map((choice) => choice.delta.content ?? ""));
    expect(content.filter((piece) => piece !== "").length).toBeGreaterThan(1);
    expect(content.join("")).toBe("Hello there");
    const last = chunks.at(-2)?.choices[0];
    expect(last).toMatchObject({ delta: {}, finish_reason: "stop" });
    expect(chunks.at(-1)).toMatchObject({
      choices: [],
      usage: {
        prompt_tokens: 26,
        completion_tokens: 4,
        total_tokens: 30,
        prompt_tokens_details: { cached_tokens: 6 },
      },
    });
    expect(chunks.slice(0, -1).every((chunk) => chunk.usage === null)).toBe(true);
  });

  it("streams several tool calls by index: id and name first, then arguments in several chunks", async () => {
    server = await startModelServer({
      toolCalls: [
        { name: "read", args: { path: "a.ts" } },
        { id: "call_mine", name: "bash", rawArgs: '{"command":' },
      ],
    });
    const chunks = await streamedChunks();
    const deltas = chunks.flatMap((chunk) => chunk.choices.map((choice) => choice.delta));
    expect(deltas[0]).toEqual({
      role: "assistant",
      content: null,
      tool_calls: [
        { index: 0, id: "call_test_0_0", type: "function", function: { name: "read", arguments: "" } },
      ],
    });
    type ToolDelta = { index: number; id?: string; function: { name?: string; arguments: string } };
    const toolDeltas = deltas.flatMap((delta) => (delta.tool_calls as ToolDelta[] | undefined) ?? []);
    const forIndex = (index: number) => toolDeltas.filter((delta) => delta.index === index);
    expect(forIndex(0).length).toBeGreaterThan(2);
    expect(
      forIndex(0)
        .slice(1)
        .every((delta) => delta.id === undefined && delta.function.name === undefined),
    ).toBe(true);
    expect(
      JSON.parse(
        forIndex(0)
          .map((delta) => delta.function.arguments)
          .join(""),
      ),
    ).toEqual({ path: "a.ts" });
    expect(forIndex(1)[0]).toMatchObject({ id: "call_mine", function: { name: "bash" } });
    expect(
      forIndex(1)
        .map((delta) => delta.function.arguments)
        .join(""),
    ).toBe('{"command":');
    expect(chunks.at(-2)?.choices[0]?.finish_reason).toBe("tool_calls");
  });

  it("sends no usage chunk and no usage fields without stream_options.include_usage", async () => {
    server = await startModelServer({ text: "hi" });
    const chunks = await streamedChunks({ stream_options: undefined });
    expect(chunks.every((chunk) => !("usage" in chunk) && chunk.choices.length === 1)).toBe(true);
  });

  it("maps stopReason length to finish_reason length", async () => {
    server = await startModelServer({ text: "cut", stopReason: "length" });
    const chunks = await streamedChunks();
    expect(chunks.at(-2)?.choices[0]?.finish_reason).toBe("length");
  });

  it("answers a non-streaming request with one chat.completion JSON", async () => {
    server = await startModelServer({
      text: "Done.",
      toolCalls: [{ id: "call_1", name: "read", args: { path: "x" } }],
      usage: { input: 5, output: 6, cacheRead: 7 },
    });
    const response = await post({ stream: false });
    expect(await response.json()).toMatchObject({
      object: "chat.completion",
      model: "gpt-5",
      choices: [
        {
          index: 0,
          finish_reason: "tool_calls",
          message: {
            role: "assistant",
            content: "Done.",
            tool_calls: [
              { id: "call_1", type: "function", function: { name: "read", arguments: '{"path":"x"}' } },
            ],
          },
        },
      ],
      usage: { prompt_tokens: 12, completion_tokens: 6, prompt_tokens_details: { cached_tokens: 7 } },
    });
  });

  it.each([
    [400, "invalid_request_error", null],
    [401, "invalid_request_error", "invalid_api_key"],
    [429, "requests", "rate_limit_exceeded"],
    [500, "server_error", null],
    [503, "server_error", null],
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
