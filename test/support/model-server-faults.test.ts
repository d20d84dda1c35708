import { afterEach, describe, expect, it } from "vitest";
import { type ModelServer, type Protocol, startModelServer } from "./model-server.ts";
import { parseSse } from "./sse.ts";

let server: ModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function post(protocol: Protocol, init: { signal?: AbortSignal; stream?: boolean } = {}) {
  const paths = {
    anthropic: `${server!.anthropicBaseUrl}/v1/messages`,
    openai: `${server!.openaiBaseUrl}/responses`,
    "openai-chat": `${server!.openaiBaseUrl}/chat/completions`,
  };
  const url = paths[protocol];
  return fetch(url, {
    method: "POST",
    body: JSON.stringify({ model: "m", stream: init.stream ?? true }),
    ...(init.signal ? { signal: init.signal } : {}),
  });
}

/** Reads until the body ends or fails; returns what arrived and whether it failed. */
async function readAll(response: Response): Promise<{ text: string; failed: boolean }> {
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return { text, failed: false };
      text += value;
    }
  } catch {
    return { text, failed: true };
  }
}

describe("scripted faults", () => {
  it("answers an HTTP error status with the scripted extra headers", async () => {
    server = await startModelServer({ status: 429, headers: { "retry-after": "2" } });
    const response = await post("anthropic");
    expect(response.status).toBe(429);
    expect(response.headers.get("retry-after")).toBe("2");
    expect(await response.json()).toMatchObject({ error: { type: "rate_limit_error" } });
  });

  it.each(["anthropic", "openai", "openai-chat"] as const)(
    "%s: cutAfterEvents drops the connection after that many events",
    async (protocol) => {
      server = await startModelServer({ text: "a long answer that is cut", cutAfterEvents: 3 });
      const response = await post(protocol);
      expect(response.status).toBe(200);
      const { text, failed } = await readAll(response);
      expect(failed).toBe(true);
      expect(parseSse(text)).toHaveLength(3);
      await expect.poll(() => server!.requests[0]?.finishedAt).toBeDefined();
    },
  );

  it("cuts a stream even when cutAfterEvents covers every event", async () => {
    server = await startModelServer({ text: "hi", cutAfterEvents: 1000 });
    const { text, failed } = await readAll(await post("openai-chat"));
    expect(failed).toBe(true);
    expect(parseSse(text).at(-1)?.data).toBe("[DONE]");
  });

  it("cutAfterEvents on a non-streaming request drops the connection without an answer", async () => {
    server = await startModelServer({ text: "hi", cutAfterEvents: 0 });
    await expect(post("anthropic", { stream: false })).rejects.toThrow();
  });

  it("streamErrorAfterEvents ends the stream with the provider's in-stream error event", async () => {
    server = await startModelServer([
      { text: "partial", streamErrorAfterEvents: 3 },
      { text: "partial", streamErrorAfterEvents: 2, errorMessage: "upstream broke" },
    ]);
    const anthropic = await readAll(await post("anthropic"));
    expect(anthropic.failed).toBe(false);
    const anthropicEvents = parseSse(anthropic.text);
    expect(anthropicEvents.map((event) => event.event)).toEqual([
      "message_start",
      "ping",
      "content_block_start",
      "error",
    ]);
    expect(JSON.parse(anthropicEvents[3]!.data)).toEqual({
      type: "error",
      error: { type: "overloaded_error", message: "Overloaded" },
    });
    const openai = parseSse((await readAll(await post("openai-chat"))).text);
    expect(openai).toHaveLength(3);
    expect(JSON.parse(openai[2]!.data)).toEqual({
      error: { message: "upstream broke", type: "server_error", param: null, code: null },
    });
  });

  it("delayMs holds the answer back", async () => {
    server = await startModelServer({ text: "hi", delayMs: 150 });
    const started = performance.now();
    const response = await post("openai");
    expect(performance.now() - started).toBeGreaterThanOrEqual(140);
    expect(response.status).toBe(200);
  });

  it("chunkDelayMs sends events one at a time as a real stream", async () => {
    server = await startModelServer({ text: "abc", chunkDelayMs: 40 });
    const response = await post("anthropic");
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    const started = performance.now();
    // The first read has the start and not the end: a buffered body would come whole.
    const first = await reader.read();
    expect(first.value).toContain("message_start");
    expect(first.value).not.toContain("message_stop");
    let rest = "";
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) rest += chunk.value;
    const total = performance.now() - started;
    // 9 events, so 8 gaps of 40 ms come after the first one.
    expect(total).toBeGreaterThanOrEqual(300);
    expect(parseSse(first.value + rest)).toHaveLength(9);
  });

  it("hangAfterEvents streams that many events, then stays silent with the connection open until the client aborts", async () => {
    server = await startModelServer({ text: "abc", hangAfterEvents: 2 });
    const controller = new AbortController();
    const response = await post("anthropic", { signal: controller.signal });
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    let received = "";
    while (parseSse(received).length < 2) received += (await reader.read()).value ?? "";
    expect(parseSse(received).map((event) => event.event)).toEqual(["message_start", "ping"]);
    // Nothing more comes, and the request is still open.
    const next = reader.read();
    const silent = await Promise.race([
      next.then(() => false),
      new Promise((resolve) => setTimeout(resolve, 200, true)),
    ]);
    expect(silent).toBe(true);
    expect(server.requests[0]?.finishedAt).toBeUndefined();
    controller.abort();
    await expect(next).rejects.toThrow();
    await expect.poll(() => server!.requests[0]?.finishedAt).toBeGreaterThan(server.requests[0]!.startedAt);
  });

  it("hang never answers; the client's abort ends the request and is recorded", async () => {
    server = await startModelServer({ hang: true });
    const controller = new AbortController();
    const pending = post("openai", { signal: controller.signal });
    await expect.poll(() => server!.requests.length).toBe(1);
    expect(server.requests[0]?.finishedAt).toBeUndefined();
    controller.abort();
    await expect(pending).rejects.toThrow();
    await expect.poll(() => server!.requests[0]?.finishedAt).toBeGreaterThan(server.requests[0]!.startedAt);
  });

  it("close() ends hanging and slow streaming requests promptly", async () => {
    // Longer than any test bound: a close() that waited for the slow stream would hang.
    server = await startModelServer([{ hang: true }, { text: "slow", chunkDelayMs: 10 * 60_000 }]);
    const hanging = post("anthropic").then(
      () => "answered",
      () => "dropped",
    );
    await expect.poll(() => server!.requests.length).toBe(1);
    const slow = await post("openai");
    const reading = readAll(slow);
    await server.close();
    expect(await hanging).toBe("dropped");
    expect((await reading).failed).toBe(true);
  });
});
