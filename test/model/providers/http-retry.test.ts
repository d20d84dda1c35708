import { afterEach, describe, expect, test } from "vitest";
import { userText } from "../../../src/model/messages.ts";
import type { ModelRequest } from "../../../src/model/model.ts";
import { type ModelServer, startModelServer } from "../../support/model-server.ts";
import { collect, modelFor, PROTOCOLS } from "./http-models.ts";

const request: ModelRequest = { system: "", messages: [userText("hi")], tools: [] };

let server: ModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe.each(PROTOCOLS)("%s adapter retries", (protocol) => {
  test("500 then success: one retry event, then the reply", async () => {
    server = await startModelServer([{ status: 500 }, { text: "recovered" }]);
    const { events, message } = await collect(modelFor(protocol, server).stream(request));
    const retries = events.filter((event) => event.type === "retry");
    expect(retries).toEqual([
      { type: "retry", attempt: 1, delayMs: expect.any(Number), error: expect.stringContaining("HTTP 500") },
    ]);
    expect(message).toMatchObject({ stopReason: "stop", content: [{ type: "text", text: "recovered" }] });
    expect(server.requests).toHaveLength(2);
  });

  test("429 with retry-after waits that long before the next request", async () => {
    server = await startModelServer([{ status: 429, headers: { "retry-after": "1" } }, { text: "ok" }]);
    const model = modelFor(protocol, server, { maxRetries: 3, baseDelayMs: 1, maxDelayMs: 5000 });
    const { events, message } = await collect(model.stream(request));
    expect(events.find((event) => event.type === "retry")).toMatchObject({
      delayMs: 1000,
      error: expect.stringContaining("HTTP 429"),
    });
    expect(message.stopReason).toBe("stop");
    const [first, second] = server.requests;
    expect(second!.startedAt - first!.startedAt).toBeGreaterThanOrEqual(990);
  });

  test("retry-after-ms is honoured too", async () => {
    server = await startModelServer([{ status: 429, headers: { "retry-after-ms": "150" } }, { text: "ok" }]);
    const { events } = await collect(modelFor(protocol, server).stream(request));
    // Capped by maxDelayMs (50 in these tests).
    expect(events.find((event) => event.type === "retry")).toMatchObject({ delayMs: 50 });
  });

  test("a server that keeps failing ends in a retryable error after N retries", async () => {
    server = await startModelServer({ status: 503 });
    const { events, message } = await collect(
      modelFor(protocol, server, { maxRetries: 2, baseDelayMs: 1, maxDelayMs: 5 }).stream(request),
    );
    expect(events.filter((event) => event.type === "retry")).toHaveLength(2);
    expect(message).toMatchObject({ stopReason: "error", retryable: true, content: [] });
    expect(message.errorMessage).toMatch(/HTTP 503.*\(gave up after 2 retries\)$/);
    expect(server.requests).toHaveLength(3);
  });

  test("400 is not retried and says why", async () => {
    server = await startModelServer([
      { status: 400, errorMessage: "messages: field required" },
      { text: "never" },
    ]);
    const { events, message } = await collect(modelFor(protocol, server).stream(request));
    expect(events.map((event) => event.type)).toEqual(["done"]);
    expect(message).toMatchObject({ stopReason: "error", retryable: false });
    expect(message.errorMessage).toMatch(/HTTP 400.*messages: field required.*will not be retried/);
    expect(server.requests).toHaveLength(1);
  });

  test("401 is not retried and names the key to set", async () => {
    server = await startModelServer([{ status: 401 }]);
    const { message } = await collect(modelFor(protocol, server).stream(request));
    const variable = protocol === "anthropic" ? "ANTHROPIC_API_KEY" : "OPENAI_API_KEY";
    expect(message).toMatchObject({ stopReason: "error", retryable: false });
    expect(message.errorMessage).toContain(`HTTP 401`);
    expect(message.errorMessage).toContain(variable);
    expect(server.requests).toHaveLength(1);
  });

  test("an error event at the start of the stream is retried", async () => {
    server = await startModelServer([{ text: "x", streamErrorAfterEvents: 1 }, { text: "second try" }]);
    const { events, message } = await collect(modelFor(protocol, server).stream(request));
    expect(events.filter((event) => event.type === "retry")).toHaveLength(1);
    expect(message).toMatchObject({ stopReason: "stop", content: [{ type: "text", text: "second try" }] });
  });

  test("the SDK itself does not retry: with maxRetries 0 a 500 makes exactly one request", async () => {
    server = await startModelServer({ status: 500 });
    const { message } = await collect(modelFor(protocol, server, { maxRetries: 0 }).stream(request));
    expect(message).toMatchObject({ stopReason: "error", retryable: true });
    expect(message.errorMessage).not.toMatch(/gave up/);
    expect(server.requests).toHaveLength(1);
  });
});
