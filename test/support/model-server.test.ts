import { afterEach, describe, expect, it } from "vitest";
import { type ModelServer, type RecordedRequest, startModelServer } from "./model-server.ts";
import { waitFor } from "./processes.ts";
import type { ServerReply } from "./server-reply.ts";

let server: ModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function post(path: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${server!.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

describe("startModelServer", () => {
  it("listens on 127.0.0.1 with base URLs in the meaning of ANTHROPIC_BASE_URL and OPENAI_BASE_URL", async () => {
    server = await startModelServer({ text: "hi" });
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(server.anthropicBaseUrl).toBe(server.url);
    expect(server.openaiBaseUrl).toBe(`${server.url}/v1`);
  });

  it("consumes a list script in order across both protocols, then answers 500 'script exhausted'", async () => {
    server = await startModelServer([{ text: "first" }, { text: "second" }]);
    const first = await post("/v1/messages", { model: "m" });
    const second = await post("/v1/chat/completions", { model: "m" });
    expect(await first.json()).toMatchObject({ content: [{ type: "text", text: "first" }] });
    expect(await second.json()).toMatchObject({ choices: [{ message: { content: "second" } }] });
    const third = await post("/v1/messages", { model: "m" });
    expect(third.status).toBe(500);
    expect(await third.json()).toEqual({
      type: "error",
      error: {
        type: "api_error",
        message: "model-server: script exhausted: request #3 has no scripted reply (the script has 2 steps)",
      },
    });
  });

  it("passes the recorded request and the call index to function steps", async () => {
    const seen: Array<[unknown, number]> = [];
    const echo = (request: RecordedRequest, call: number): ServerReply => {
      seen.push([request.body.model, call]);
      return { text: `${request.protocol} ${call}` };
    };
    server = await startModelServer(echo);
    await post("/v1/messages", { model: "a" });
    const chat = await post("/v1/chat/completions", { model: "b" });
    expect(await chat.json()).toMatchObject({ choices: [{ message: { content: "openai-chat 1" } }] });
    const responses = await post("/v1/responses", { model: "c" });
    expect(await responses.json()).toMatchObject({
      object: "response",
      output: [{ type: "message", content: [{ type: "output_text", text: "openai 2" }] }],
    });
    expect(seen).toEqual([
      ["a", 0],
      ["b", 1],
      ["c", 2],
    ]);
  });

  it("records protocol, path, lower-cased headers, parsed body and timing of every request", async () => {
    server = await startModelServer([{ text: "a" }, { text: "b" }, { text: "c" }]);
    await post(
      "/v1/messages?beta=true",
      { model: "m", messages: [{ role: "user", content: "hi" }] },
      { "X-Api-Key": "k1" },
    );
    await post("/v1/chat/completions", { model: "g" }, { Authorization: "Bearer k2" });
    await post("/v1/responses", { model: "r", input: [] }, { Authorization: "Bearer k3" });
    const [anthropic, openai, responses] = server.requests;
    expect(anthropic).toMatchObject({
      protocol: "anthropic",
      path: "/v1/messages?beta=true",
      headers: { "x-api-key": "k1", "content-type": "application/json" },
      body: { model: "m", messages: [{ role: "user", content: "hi" }] },
    });
    expect(openai).toMatchObject({
      protocol: "openai-chat",
      path: "/v1/chat/completions",
      headers: { authorization: "Bearer k2" },
    });
    expect(responses).toMatchObject({
      protocol: "openai",
      path: "/v1/responses",
      headers: { authorization: "Bearer k3" },
      body: { model: "r", input: [] },
    });
    expect(anthropic!.finishedAt).toBeGreaterThanOrEqual(anthropic!.startedAt);
    expect(openai!.startedAt).toBeGreaterThanOrEqual(anthropic!.finishedAt!);
  });

  it("timestamps show whether requests overlapped", async () => {
    // Each answers only once both have arrived, so they overlap however slowly the second is sent.
    server = await startModelServer(async () => {
      await waitFor(() => server!.requests.length === 2, 5_000, "the second request");
      return { text: "x" };
    });
    await Promise.all([post("/v1/messages", { model: "m" }), post("/v1/messages", { model: "m" })]);
    const [a, b] = server.requests;
    expect(b!.startedAt).toBeLessThan(a!.finishedAt!);
    expect(a!.startedAt).toBeLessThan(b!.finishedAt!);
  });

  it("rejects an invalid static step up front with a clear error", async () => {
    await expect(startModelServer([{ text: "ok" }, { toolcalls: [] } as ServerReply])).rejects.toThrow(
      /invalid script step #2: .*toolcalls/s,
    );
    await expect(startModelServer({ status: 200 })).rejects.toThrow(/invalid script step #1: .*status/s);
  });

  it("answers 500 with the reason when a function step returns an invalid reply or throws", async () => {
    server = await startModelServer([
      () => ({ text: 42 }) as unknown as ServerReply,
      () => {
        throw new Error("boom");
      },
    ]);
    const invalid = await post("/v1/chat/completions", { model: "m" });
    expect(invalid.status).toBe(500);
    expect(await invalid.json()).toMatchObject({
      error: { message: expect.stringMatching(/invalid reply from script step #1: .*text/s) },
    });
    const thrown = await post("/v1/chat/completions", { model: "m" });
    expect(await thrown.json()).toMatchObject({
      error: { message: "model-server: script step #2 threw: boom" },
    });
  });

  it("answers 400 to a body that is not a JSON object, records it, and keeps the step for the next request", async () => {
    server = await startModelServer([{ text: "kept" }]);
    const bad = await post("/v1/messages", "{not json");
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ error: { type: "invalid_request_error" } });
    expect(server.requests[0]).toMatchObject({ rawBody: "{not json", body: {} });
    const good = await post("/v1/messages", { model: "m" });
    expect(await good.json()).toMatchObject({ content: [{ text: "kept" }] });
  });

  it("answers 404 to other routes without consuming a step or recording", async () => {
    server = await startModelServer([{ text: "kept" }]);
    expect((await post("/v1/completions", { model: "m" })).status).toBe(404);
    expect((await fetch(`${server.url}/v1/messages`)).status).toBe(404);
    expect(server.requests).toEqual([]);
    expect((await post("/v1/messages", { model: "m" })).status).toBe(200);
  });

  it("close() can be called twice", async () => {
    server = await startModelServer({ text: "x" });
    await server.close();
    await server.close();
    await expect(fetch(`${server.url}/v1/messages`, { method: "POST", body: "{}" })).rejects.toThrow();
  });
});
