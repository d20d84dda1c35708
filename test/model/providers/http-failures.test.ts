import { createServer } from "node:net";
import { afterEach, describe, expect, test } from "vitest";
import { userText } from "../../../src/model/messages.ts";
import type { ModelEvent, ModelRequest } from "../../../src/model/model.ts";
import { createModel } from "../../../src/model/registry.ts";
import { type ModelServer, startModelServer } from "../../support/model-server.ts";
import { collect, modelFor, PROTOCOLS } from "./http-models.ts";

const request: ModelRequest = { system: "", messages: [userText("hi")], tools: [] };

let server: ModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** Where each protocol's event sequence has sent its first text delta, and its first argument chunk. */
const AFTER_FIRST = {
  text: { anthropic: 4, openai: 5, "openai-chat": 2 },
  argumentChunk: { anthropic: 10, openai: 12, "openai-chat": 6 },
} as const;

describe.each(PROTOCOLS)("%s adapter failures", (protocol) => {
  test("a stream cut mid-message ends in a clear error, never a half success", async () => {
    server = await startModelServer([
      { text: "This reply will be cut off in the middle", cutAfterEvents: AFTER_FIRST.text[protocol] },
      { text: "unused" },
    ]);
    const { events, message } = await collect(modelFor(protocol, server).stream(request));
    expect(events.some((event) => event.type === "text_delta")).toBe(true);
    expect(events.some((event) => event.type === "retry")).toBe(false);
    expect(message.stopReason).toBe("error");
    expect(message.errorMessage).toMatch(/stream ended before the message was complete/);
    // Not retried, since part of it was shown already; the message says so.
    expect(message.errorMessage).toMatch(
      /^the reply broke off after part of it had arrived, so it was not retried/,
    );
    expect(message.retryable).toBe(true);
    expect(server.requests).toHaveLength(1);
  });

  test("a stream cut before any content is retried", async () => {
    server = await startModelServer([{ text: "never seen", cutAfterEvents: 1 }, { text: "second" }]);
    const { events, message } = await collect(modelFor(protocol, server).stream(request));
    expect(events.filter((event) => event.type === "retry")).toHaveLength(1);
    expect(message).toMatchObject({ stopReason: "stop", content: [{ type: "text", text: "second" }] });
  });

  test("a tool call cut mid-arguments is an error without the half call", async () => {
    server = await startModelServer([
      {
        text: "Calling.",
        toolCalls: [{ name: "read", args: { path: "some/long/path.ts" } }],
        cutAfterEvents: AFTER_FIRST.argumentChunk[protocol],
      },
    ]);
    const { events, message } = await collect(modelFor(protocol, server, { maxRetries: 0 }).stream(request));
    expect(events.some((event) => event.type === "tool_call_delta")).toBe(true);
    expect(events.some((event) => event.type === "tool_call_end")).toBe(false);
    expect(message.stopReason).toBe("error");
    expect(message.errorMessage).toMatch(/stream ended before the message was complete/);
    expect(message.content).toEqual([{ type: "text", text: "Calling." }]);
  });

  test("an abort mid-stream ends the stream as aborted at once", async () => {
    // The server goes silent right after the first text delta and never sends another byte: only the
    // abort can end this stream (without it the loop below would wait until the test times out).
    server = await startModelServer([
      { text: "a long reply that streams slowly", hangAfterEvents: AFTER_FIRST.text[protocol] },
    ]);
    const controller = new AbortController();
    const events: ModelEvent[] = [];
    for await (const event of modelFor(protocol, server).stream(request, controller.signal)) {
      events.push(event);
      if (event.type === "text_delta") controller.abort();
    }
    expect(events.filter((event) => event.type === "text_delta")).toHaveLength(1);
    expect(events.at(-1)).toMatchObject({
      type: "done",
      message: { stopReason: "aborted", errorMessage: "aborted" },
    });
    expect(events.filter((event) => event.type === "retry")).toHaveLength(0);
  });

  test("an abort while the server has not answered ends as aborted", async () => {
    server = await startModelServer([{ hang: true }]);
    const controller = new AbortController();
    const stream = modelFor(protocol, server).stream(request, controller.signal);
    setTimeout(() => controller.abort(), 100);
    const { message } = await collect(stream);
    expect(message).toMatchObject({ stopReason: "aborted", errorMessage: "aborted" });
    expect(server.requests).toHaveLength(1);
  });

  test("an already aborted signal makes no request", async () => {
    server = await startModelServer([{ text: "x" }]);
    const { message } = await collect(modelFor(protocol, server).stream(request, AbortSignal.abort()));
    expect(message.stopReason).toBe("aborted");
    expect(server.requests).toHaveLength(0);
  });
});

test("an unreachable server is a retryable error naming the URL and the setting", async () => {
  const port = await closedPort();
  const model = createModel(
    "anthropic:claude-sonnet-4-5",
    {
      anthropic: { apiKey: "k", baseUrl: `http://127.0.0.1:${port}` },
      retry: { maxRetries: 1, baseDelayMs: 1 },
    },
    {},
  );
  const { events, message } = await collect(model.stream(request));
  expect(events.filter((event) => event.type === "retry")).toHaveLength(1);
  expect(message).toMatchObject({ stopReason: "error", retryable: true });
  expect(message.errorMessage).toMatch(
    new RegExp(`Could not reach Anthropic at http://127.0.0.1:${port}/v1/messages.*ANTHROPIC_BASE_URL`),
  );
});

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const address = probe.address();
  await new Promise((resolve) => probe.close(resolve));
  if (typeof address !== "object" || address === null) throw new Error("no port");
  return address.port;
}
